/// Stretches one component's samples to one output row, with the kernel its ``UpsamplingMethod``
/// names (libjpeg-turbo's jdsample.c): the row an output row sits on, and for the vertical
/// triangle filters the nearer and the farther of the rows around it.
///
/// Shared by the renderers, which differ only in where sample rows live (a ring of three iMCU
/// rows, or a whole-image plane): `sampleRow(s)` returns sample row s, which is inside the
/// component (this clamps to its last row, replicating it as libjpeg does at the bottom edge).
enum ComponentRowUpsampler {
    /// The samples of `component` for output row `y`, `outputWidth` wide: a sample row itself when
    /// no stretching is needed, else `scratch` filled by the kernel (`sums` holds the 2:2
    /// filter's column sums, downsampled width values). Only output samples `pixels`
    /// (all by default) need to be right: the triangle filters then run on just the input columns
    /// those read, plus one each side, which the kernel treats as the row's ends; the outputs of
    /// those extra columns are wrong unless they are the row's true ends, and are not used.
    @inline(__always)
    static func row(_ component: ComponentLayout, outputRow y: Int, outputWidth: Int, pixels: Range<Int>? = nil,
                    scratch: UnsafeMutablePointer<UInt8>, sums: UnsafeMutablePointer<UInt16>,
                    sampleRow: (Int) -> UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let lastRow = component.downsampledHeight - 1
        // Input columns for a 2:1 horizontal kernel: those `pixels` read, one more each side, at
        // least 3 (the kernels' minimum width, which downsampledWidth > 2 allows).
        let width = component.downsampledWidth
        var inputs = 0..<width
        if let pixels, !pixels.isEmpty, pixels.count < outputWidth {
            let first = max(pixels.lowerBound / 2 - 1, 0), end = min((pixels.upperBound - 1) / 2 + 2, width)
            inputs = end - first >= 3 ? first..<end : max(min(first, width - 3), 0)..<min(max(end, 3), width)
        }
        switch component.upsampling {
        case .fullSize:
            return UnsafePointer(sampleRow(min(y, lastRow)))
        case .h2v1Fancy:
            RowUpsampler.h2v1Fancy(sampleRow(min(y, lastRow)) + inputs.lowerBound, width: inputs.count,
                                   into: scratch + 2 * inputs.lowerBound)
            return UnsafePointer(scratch)
        case .h1v2Fancy, .h2v2Fancy:
            let (nearRow, farRow, upper) = verticalNeighbours(component, outputRow: y)
            if component.upsampling == .h1v2Fancy {
                RowUpsampler.h1v2Fancy(near: sampleRow(nearRow), far: sampleRow(farRow),
                                       width: component.downsampledWidth, upper: upper, into: scratch)
            } else {
                RowUpsampler.h2v2Fancy(near: sampleRow(nearRow) + inputs.lowerBound, far: sampleRow(farRow) + inputs.lowerBound,
                                       width: inputs.count, sums: sums, into: scratch + 2 * inputs.lowerBound)
            }
            return UnsafePointer(scratch)
        case .box(let horizontal, let vertical):
            let source = sampleRow(min(y / vertical, lastRow))
            if horizontal == 1 { return UnsafePointer(source) }
            RowUpsampler.replicate(source, factor: horizontal, outputWidth: outputWidth, into: scratch)
            return UnsafePointer(scratch)
        }
    }

    /// For the vertical triangle filters: the sample row output row `y` sits on, the farther one
    /// it blends in (above for the upper row of a pair, below for the lower; the edge rows stand
    /// in past the ends), and whether it is the upper row.
    @inline(__always)
    static func verticalNeighbours(_ component: ComponentLayout, outputRow y: Int) -> (near: Int, far: Int, upper: Bool) {
        let lastRow = component.downsampledHeight - 1
        let nearRow = min(y / 2, lastRow)
        let upper = y & 1 == 0
        return (nearRow, upper ? max(nearRow - 1, 0) : min(nearRow + 1, lastRow), upper)
    }

    /// The output rows that read sample rows `samples` of `component` (clamped to the output by
    /// the caller): the rows they stretch to, one more above and below for the vertical triangle
    /// filters (which also read the row above or below), and every row past the last sample row
    /// (which replicate it).
    static func outputRows(reading samples: Range<Int>, of component: ComponentLayout, outputHeight: Int) -> Range<Int> {
        var rows: Range<Int>
        switch component.upsampling {
        case .fullSize, .h2v1Fancy: rows = samples
        case .h1v2Fancy, .h2v2Fancy: rows = (2 * samples.lowerBound - 1)..<(2 * samples.upperBound + 1)
        case .box(_, let vertical): rows = (samples.lowerBound * vertical)..<(samples.upperBound * vertical)
        }
        if samples.upperBound >= component.downsampledHeight { rows = rows.lowerBound..<max(rows.upperBound, outputHeight) }
        return rows.clamped(to: 0..<outputHeight)
    }

    /// The output columns that read sample columns `samples` of `component`, the horizontal twin
    /// of ``outputRows(reading:of:outputHeight:)``.
    static func outputColumns(reading samples: Range<Int>, of component: ComponentLayout, outputWidth: Int) -> Range<Int> {
        var columns: Range<Int>
        switch component.upsampling {
        case .fullSize, .h1v2Fancy: columns = samples
        case .h2v1Fancy, .h2v2Fancy: columns = (2 * samples.lowerBound - 1)..<(2 * samples.upperBound + 1)
        case .box(let horizontal, _): columns = (samples.lowerBound * horizontal)..<(samples.upperBound * horizontal)
        }
        if samples.upperBound >= component.downsampledWidth { columns = columns.lowerBound..<max(columns.upperBound, outputWidth) }
        return columns.clamped(to: 0..<outputWidth)
    }
}
