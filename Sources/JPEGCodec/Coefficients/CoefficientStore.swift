import ImageCore

/// Owns the coefficient blocks of every component: either one iMCU row at a time (a single
/// interleaved scan streams straight to the output) or the whole image (when components arrive in
/// separate scans, and later for progressive refinement).
///
/// Sequential blocks hold dequantized `Int16` coefficients (the product kept to 16 bits, as
/// libjpeg-turbo's SIMD dequantization keeps it), the input the IDCTs take: sequential
/// scans multiply as they decode (only non-zero coefficients cost anything), using the table
/// latched for the component when its first scan started (T.81 B.2.4.1, libjpeg's
/// `latch_quant_tables`). Progressive refinement (G.1.2.3) changes coefficients bit by bit, so
/// progressive storage keeps raw `Int16` values (libjpeg's JCOEF) that the renderer dequantizes.
final class CoefficientStore {
    /// How much of the image is kept.
    enum Extent: Equatable {
        /// One iMCU row per component (V block rows), reused for every row.
        case oneIMCURow
        /// `slots` iMCU rows per component, iMCU row r in slot r mod `slots`: the entropy decoder
        /// fills one slot while another thread transforms the others (see ``TransformPipeline``).
        case iMCURowRing(slots: Int)
        /// Every block row of every component.
        case wholeImage

        /// Block rows kept of a component with `component.verticalSampling` block rows per iMCU row.
        func storedBlockRows(_ component: ComponentLayout) -> Int {
            switch self {
            case .oneIMCURow: return component.verticalSampling
            case .iMCURowRing(let slots): return slots * component.verticalSampling
            case .wholeImage: return component.blockRows
            }
        }
    }

    let extent: Extent
    /// Blocks hold raw coefficients (progressive, 12-bit) rather than dequantized ones.
    let holdsRawCoefficients: Bool
    private let layout: FrameLayout
    /// The one allocation that holds every plane below.
    private let storage: ZeroedMemory
    private let planes: [UnsafeMutableRawPointer]
    private let shapePlanes: [UnsafeMutablePointer<UInt8>]
    /// Per component, one ``CoefficientWindow/nonZeroMasks`` word per block (raw storage; one
    /// unused word otherwise).
    private let maskPlanes: [UnsafeMutablePointer<UInt64>]
    /// One window per frame component, valid for the current iMCU row (or the whole image).
    let windows: UnsafeMutablePointer<CoefficientWindow>
    /// Per component, 64 quantizers in natural order (0 until latched).
    let quantization: UnsafeMutablePointer<Int32>

    /// Allocates zeroed storage of `Int16` coefficients, raw if `rawCoefficients`; throws
    /// `limitExceeded` if its size overflows or passes `maxBytes`.
    init(layout: FrameLayout, extent: Extent, rawCoefficients: Bool = false, maxBytes: Int, at offset: Int) throws {
        self.extent = extent
        self.layout = layout
        holdsRawCoefficients = rawCoefficients
        let coefficientBytes = 2
        var counts: [Int] = []
        var total = 0
        for component in layout.components {
            let rows = extent.storedBlockRows(component)
            let (blocks, overflow1) = component.blocksPerLine.multipliedReportingOverflow(by: rows)
            let (values, overflow2) = blocks.multipliedReportingOverflow(by: 64)
            let (sum, overflow3) = total.addingReportingOverflow(values)
            guard !overflow1, !overflow2, !overflow3, sum <= maxBytes / coefficientBytes else {
                throw ImageDecodingError(.limitExceeded, at: offset,
                                         "coefficient storage for \(layout.width)×\(layout.height) exceeds the memory limit")
            }
            counts.append(values)
            total = sum
        }
        // One allocation for every plane, mask and shape array: a large one gets huge pages as a
        // whole (``LargeBuffer``), where separate planes below its threshold (the chroma planes
        // of a 4:2:0 photo, 3 MB each) and every plane's tail past its last whole 2 MiB page were
        // faulted in 4 KiB at a time on each decode. Zero-filled (by the kernel, when large):
        // coefficients and masks 0, and shapes `BlockShape.dcOnly`, which is 0 too.
        func aligned(_ bytes: Int) -> Int { (bytes + 63) & ~63 }
        var offsets: [(plane: Int, mask: Int, shape: Int)] = []
        var end = 0
        for count in counts {
            let plane = end
            end += aligned(count * coefficientBytes)
            let mask = end
            end += aligned((rawCoefficients ? count / 64 : 1) * 8)
            let shape = end
            end += aligned(count / 64)
            offsets.append((plane, mask, shape))
        }
        jpegInvariant(BlockShape.dcOnly == 0, "zeroed shapes must read as dcOnly")
        storage = LargeBuffer.allocateZeroed(byteCount: end)
        let memory = storage.pointer
        planes = offsets.enumerated().map { c, offset in
            let plane = memory + offset.plane
            plane.bindMemory(to: Int16.self, capacity: counts[c])
            return plane
        }
        shapePlanes = offsets.enumerated().map { c, offset in (memory + offset.shape).bindMemory(to: UInt8.self, capacity: counts[c] / 64) }
        maskPlanes = offsets.enumerated().map { c, offset in
            (memory + offset.mask).bindMemory(to: UInt64.self, capacity: rawCoefficients ? counts[c] / 64 : 1)
        }
        quantization = .allocate(capacity: 64 * planes.count)
        quantization.initialize(repeating: 0, count: 64 * planes.count)
        windows = .allocate(capacity: planes.count)
        for (c, component) in layout.components.enumerated() {
            (windows + c).initialize(to: CoefficientWindow(base: planes[c], blockBytes: 64 * coefficientBytes, shapes: shapePlanes[c],
                                                           nonZeroMasks: maskPlanes[c],
                                                           blocksPerLine: component.blocksPerLine, firstBlockRow: 0,
                                                           rowCount: extent == .wholeImage ? component.blockRows : component.verticalSampling))
        }
    }

    deinit {
        storage.release()
        windows.deallocate()
        quantization.deallocate()
    }

    /// Latches component `component`'s quantization table (natural order). Values are truncated to
    /// 16 bits as libjpeg's ISLOW_MULT_TYPE (a short) does.
    func setQuantization(component: Int, table: [UInt16]) {
        for i in 0..<64 { quantization[component * 64 + i] = Int32(Int16(truncatingIfNeeded: table[i])) }
    }

    /// Component `component`'s quantizers.
    func quantization(component: Int) -> UnsafePointer<Int32> { UnsafePointer(quantization + component * 64) }

    /// Points the windows at iMCU row `row` (one-row storage reuses the same memory for every row,
    /// a ring the memory of slot `row` mod its slot count).
    func moveTo(iMCURow row: Int) {
        switch extent {
        case .wholeImage:
            return
        case .oneIMCURow:
            for (c, component) in layout.components.enumerated() {
                windows[c].firstBlockRow = row * component.verticalSampling
            }
        case .iMCURowRing(let slots):
            for (c, component) in layout.components.enumerated() {
                let firstBlock = (row % slots) * component.verticalSampling * component.blocksPerLine
                windows[c].base = planes[c] + firstBlock * windows[c].blockBytes
                windows[c].shapes = shapePlanes[c] + firstBlock
                windows[c].firstBlockRow = row * component.verticalSampling
            }
        }
    }
}
