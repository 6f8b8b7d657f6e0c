import Dispatch
import ImageCore

/// Owns the coefficient blocks of every component: either one iMCU row at a time (a single
/// interleaved scan streams straight to the output) or the whole image (when components arrive in
/// separate scans, and later for progressive refinement).
///
/// Sequential blocks hold dequantized `Int32` coefficients, the input the IDCTs take: sequential
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
    /// Blocks hold raw `Int16` coefficients (progressive) rather than dequantized `Int32`.
    let holdsRawCoefficients: Bool
    private let layout: FrameLayout
    private let planes: [UnsafeMutableRawPointer]
    private let shapePlanes: [UnsafeMutablePointer<UInt8>]
    /// Per component, one ``CoefficientWindow/nonZeroMasks`` word per block (raw storage; one
    /// unused word otherwise).
    private let maskPlanes: [UnsafeMutablePointer<UInt64>]
    /// One window per frame component, valid for the current iMCU row (or the whole image).
    let windows: UnsafeMutablePointer<CoefficientWindow>
    /// Per component, 64 quantizers in natural order (0 until latched).
    let quantization: UnsafeMutablePointer<Int32>

    /// Planes at least this large are zeroed by two threads when the decode may use two.
    static let twoThreadZeroingBytes = 4 << 20

    /// Zeroes `byteCount` bytes at `memory`; with `threads` ≥ 2 and a large plane, the second half
    /// on another thread at once. A progressive 6 Mpix picture's planes are 18–36 MB, whose
    /// zeroing (and first-touch page faults) would otherwise delay the first scan on one core.
    private static func zero(_ memory: UnsafeMutableRawPointer, byteCount: Int, threads: Int) {
        guard threads > 1, byteCount >= twoThreadZeroingBytes else {
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            return
        }
        let half = (byteCount / 2) & ~63
        let halves = ZeroingHalves(memory: memory, half: half, byteCount: byteCount)
        DispatchQueue.concurrentPerform(iterations: 2) { halves.zero(part: $0) }
    }

    /// Allocates zeroed storage, raw `Int16` coefficients if `rawCoefficients`; throws
    /// `limitExceeded` if its size overflows or passes `maxBytes`. With `threads` ≥ 2 a large
    /// store is zeroed by two threads at once (``zero(_:byteCount:threads:)``).
    init(layout: FrameLayout, extent: Extent, rawCoefficients: Bool = false, maxBytes: Int, threads: Int = 1,
         at offset: Int) throws {
        self.extent = extent
        self.layout = layout
        holdsRawCoefficients = rawCoefficients
        let coefficientBytes = rawCoefficients ? 2 : 4
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
        planes = counts.map { count in
            // Zero-filled, and bound to the coefficient type the window accessors assume.
            let byteCount = count * coefficientBytes
            let plane = LargeBuffer.allocate(byteCount: byteCount, alignment: 16)
            Self.zero(plane, byteCount: byteCount, threads: threads)
            if rawCoefficients { plane.bindMemory(to: Int16.self, capacity: count) } else { plane.bindMemory(to: Int32.self, capacity: count) }
            return plane
        }
        shapePlanes = counts.map { count in
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: count / 64)
            plane.initialize(repeating: BlockShape.dcOnly, count: count / 64)
            return plane
        }
        maskPlanes = counts.map { count in
            let plane = UnsafeMutablePointer<UInt64>.allocate(capacity: rawCoefficients ? count / 64 : 1)
            plane.initialize(repeating: 0, count: rawCoefficients ? count / 64 : 1)
            return plane
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
        planes.forEach { $0.deallocate() }
        shapePlanes.forEach { $0.deallocate() }
        maskPlanes.forEach { $0.deallocate() }
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

/// The two halves of a plane zeroed at once (``CoefficientStore``'s two-thread zeroing).
///
/// `@unchecked Sendable`: the two iterations write disjoint byte ranges of memory nothing else
/// uses yet, and `concurrentPerform` returns after both.
private struct ZeroingHalves: @unchecked Sendable {
    let memory: UnsafeMutableRawPointer
    let half: Int
    let byteCount: Int

    func zero(part: Int) {
        let start = part == 0 ? 0 : half
        let end = part == 0 ? half : byteCount
        (memory + start).initializeMemory(as: UInt8.self, repeating: 0, count: end - start)
    }
}
