/// The rows one thread needs to upsample and colour-convert output rows: per component, a row
/// for upsampled samples (output width, rounded up for the 2× kernels, 16 spare bytes), the
/// pointers handed to the colour converter, and the 2:2 filter's column sums (widest downsampled
/// row). A renderer owns one; a worker thread that also emits rows brings its own.
final class UpsampleScratch {
    let componentCount: Int
    let upsampledRows: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>
    let rowPointers: UnsafeMutablePointer<UnsafePointer<UInt8>>
    let columnSums: UnsafeMutablePointer<UInt16>
    /// Cb's and Cr's column values for ``PairedChromaUpsampler`` (`pairedValueCount` apart), and
    /// 32 bytes of chroma for the last pixels of a row.
    let pairedValues: UnsafeMutablePointer<UInt16>
    let pairedValueCount: Int
    let pairedTail: UnsafeMutablePointer<UInt8>

    /// Scratch for `layout`'s components, zeroed.
    init(layout: FrameLayout) {
        componentCount = layout.components.count
        upsampledRows = .allocate(capacity: componentCount)
        rowPointers = .allocate(capacity: componentCount)
        let sumsCount = (layout.components.map(\.downsampledWidth).max() ?? 0) + 16
        columnSums = .allocate(capacity: sumsCount)
        columnSums.initialize(repeating: 0, count: sumsCount)
        pairedValueCount = PairedChromaUpsampler.valueCount(width: layout.components.map(\.downsampledWidth).max() ?? 0)
        pairedValues = .allocate(capacity: 2 * pairedValueCount)
        pairedValues.initialize(repeating: 0, count: 2 * pairedValueCount)
        pairedTail = .allocate(capacity: 32)
        pairedTail.initialize(repeating: 0, count: 32)
        for (c, component) in layout.components.enumerated() {
            let upsampledWidth = max(layout.outputWidth, 2 * component.downsampledWidth) + 16
            upsampledRows[c] = .allocate(capacity: upsampledWidth)
            upsampledRows[c].initialize(repeating: 0, count: upsampledWidth)
            rowPointers[c] = UnsafePointer(upsampledRows[c])
        }
    }

    deinit {
        for c in 0..<componentCount { upsampledRows[c].deallocate() }
        upsampledRows.deallocate()
        rowPointers.deallocate()
        columnSums.deallocate()
        pairedValues.deallocate()
        pairedTail.deallocate()
    }
}
