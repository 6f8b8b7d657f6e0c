import ImageCore

/// Owns the coefficient blocks of every component: either one iMCU row at a time (a single
/// interleaved scan streams straight to the output) or the whole image (when components arrive in
/// separate scans, and later for progressive refinement).
final class CoefficientStore {
    /// How much of the image is kept.
    enum Extent {
        /// One iMCU row per component (V block rows), reused for every row.
        case oneIMCURow
        /// Every block row of every component.
        case wholeImage
    }

    let extent: Extent
    private let layout: FrameLayout
    private let planes: [UnsafeMutablePointer<Int16>]
    private let shapePlanes: [UnsafeMutablePointer<UInt8>]
    /// One window per frame component, valid for the current iMCU row (or the whole image).
    let windows: UnsafeMutablePointer<CoefficientWindow>

    /// Allocates zeroed storage; throws `limitExceeded` if its size overflows or passes `maxBytes`.
    init(layout: FrameLayout, extent: Extent, maxBytes: Int, at offset: Int) throws {
        self.extent = extent
        self.layout = layout
        var counts: [Int] = []
        var total = 0
        for component in layout.components {
            let rows = extent == .wholeImage ? component.blockRows : component.verticalSampling
            let (blocks, overflow1) = component.blocksPerLine.multipliedReportingOverflow(by: rows)
            let (values, overflow2) = blocks.multipliedReportingOverflow(by: 64)
            let (sum, overflow3) = total.addingReportingOverflow(values)
            guard !overflow1, !overflow2, !overflow3, sum <= maxBytes / 2 else {
                throw ImageDecodingError(.limitExceeded, at: offset,
                                         "coefficient storage for \(layout.width)×\(layout.height) exceeds the memory limit")
            }
            counts.append(values)
            total = sum
        }
        planes = counts.map { count in
            let plane = UnsafeMutablePointer<Int16>.allocate(capacity: count)
            plane.initialize(repeating: 0, count: count)
            return plane
        }
        shapePlanes = counts.map { count in
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: count / 64)
            plane.initialize(repeating: BlockShape.dcOnly, count: count / 64)
            return plane
        }
        windows = .allocate(capacity: planes.count)
        for (c, component) in layout.components.enumerated() {
            (windows + c).initialize(to: CoefficientWindow(base: planes[c], shapes: shapePlanes[c],
                                                           blocksPerLine: component.blocksPerLine, firstBlockRow: 0))
        }
    }

    deinit {
        planes.forEach { $0.deallocate() }
        shapePlanes.forEach { $0.deallocate() }
        windows.deallocate()
    }

    /// Points the windows at iMCU row `row` (one-row storage reuses the same memory for every row).
    func moveTo(iMCURow row: Int) {
        guard extent == .oneIMCURow else { return }
        for (c, component) in layout.components.enumerated() {
            windows[c].firstBlockRow = row * component.verticalSampling
        }
    }
}
