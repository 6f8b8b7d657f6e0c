/// Picks the cheapest exact inverse DCT for a block's ``BlockShape`` and output size: shared by
/// the sequential row renderer and the progressive block drawer.
enum ShapedInverseDCT {
    /// Transforms `block` (dequantized, natural order) into `size`×`size` samples at `output`,
    /// rows `stride` apart.
    @inline(__always)
    static func transform(_ block: UnsafePointer<Int32>, shape: UInt8, size: Int, workspace: UnsafeMutablePointer<Int32>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int) {
        if shape == BlockShape.dcOnly {
            // Every IDCT size gives a flat block of DC / 8 (the zero-input paths are exact); the 8×8
            // one wraps a huge DC as libjpeg-turbo's SIMD code does.
            let value = size == 8 ? InverseDCT.flatSample(dc: block[0]) : clampSample(descale(block[0], 3))
            for y in 0..<size { fillSamples(output + y * stride, with: value, count: size) }
            return
        }
        switch size {
        case 8 where shape == BlockShape.triangle:
            TriangleInverseDCT.transform(block, workspace: workspace, output: output, stride: stride)
        case 8 where shape == BlockShape.topLeft4x4:
            InverseDCT.transform8x8TopLeft(block, workspace: workspace, output: output, stride: stride)
        case 8: InverseDCT.transform8x8(block, workspace: workspace, output: output, stride: stride)
        case 4: EightLaneReducedInverseDCT.transform4x4(block, workspace: workspace, output: output, stride: stride)
        case 2: ReducedInverseDCT.transform2x2(block, workspace: workspace, output: output, stride: stride)
        default: ReducedInverseDCT.transform1x1(block, output: output)
        }
    }
}
