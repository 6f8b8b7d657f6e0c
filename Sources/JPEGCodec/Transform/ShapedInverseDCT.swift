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

    /// ``transform(_:shape:size:workspace:output:stride:)`` for a block of 16-bit dequantized
    /// values (sequential storage, progressive drawing at full size); `workspace` holds 128 values.
    /// 8×8 blocks of every shape but DC-only and 4×4 blocks load their rows as they are (``EightLaneInverseDCT``,
    /// ``TriangleInverseDCT``, ``EightLaneReducedInverseDCT``) and the scalar 2×2 reads the values
    /// itself; DC-only blocks and 1×1 widen the DC into the workspace's second half (anything else,
    /// the whole block) and take the 32-bit path.
    @inline(__always)
    static func transform(_ block: UnsafePointer<Int16>, shape: UInt8, size: Int, workspace: UnsafeMutablePointer<Int32>,
                          output: UnsafeMutablePointer<UInt8>, stride: Int) {
        if size == 8 && shape == BlockShape.full {
            EightLaneInverseDCT.transformFull(block, workspace: workspace, output: output, stride: stride)
            return
        }
        if size == 8 && shape == BlockShape.topLeft4x4 {
            EightLaneInverseDCT.transformTopLeft(block, workspace: workspace, output: output, stride: stride)
            return
        }
        if size == 8 && shape == BlockShape.leftColumns {
            EightLaneInverseDCT.transformLeftColumns(block, workspace: workspace, output: output, stride: stride)
            return
        }
        if size == 8 && shape == BlockShape.topRows {
            EightLaneInverseDCT.transformTopRows(block, workspace: workspace, output: output, stride: stride)
            return
        }
        if size == 8 && shape == BlockShape.triangle {
            TriangleInverseDCT.transform(block, workspace: workspace, output: output, stride: stride)
            return
        }
        if size == 4 && shape != BlockShape.dcOnly {
            EightLaneReducedInverseDCT.transform4x4(block, workspace: workspace, output: output, stride: stride)
            return
        }
        let wide = workspace + 64
        if shape == BlockShape.dcOnly || size == 1 {
            wide[0] = Int32(block[0])
        } else if size == 2 {
            ReducedInverseDCT.transform2x2(block, workspace: workspace, output: output, stride: stride)
            return
        } else {
            SixteenBitLanes.widen(block, into: wide)
        }
        transform(UnsafePointer(wide), shape: shape, size: size, workspace: workspace, output: output, stride: stride)
    }
}
