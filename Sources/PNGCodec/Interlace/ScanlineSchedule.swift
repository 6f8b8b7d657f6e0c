/// The order in which rows arrive in the image data: pass by pass, row by row (PNG 8.2).
///
/// Empty passes (an image narrower than 5 pixels has no pass 2, PNG 8.2) carry no bytes at all,
/// not even filter-type bytes, so they are left out of ``passes``.
/// Example: a 3×3 Adam7 image has passes 1 (1×1), 3 (1×1), 4 (1×1), 5 (2×1), 6 (1×2) and 7 (3×1).
struct ScanlineSchedule {
    /// One non-empty pass with its size in this image.
    struct Pass {
        /// Geometry of the pass.
        let geometry: Adam7Pass
        /// Pixels per row.
        let columns: Int
        /// Number of rows.
        let rows: Int
        /// Unfiltered bytes per row (no filter-type byte).
        let rowBytes: Int
    }

    /// The non-empty passes in stream order.
    let passes: [Pass]
    /// Index in ``passes`` of the pass being received.
    private(set) var passIndex = 0
    /// Row of that pass being received.
    private(set) var row = 0
    /// Filtered bytes (filter-type byte included) of all rows: what the zlib stream must produce.
    let totalFilteredBytes: Int

    /// Lays out the rows of `header`; nil if the sizes overflow.
    init?(header: IHDRChunk) {
        let geometries = header.isInterlaced ? Adam7Pass.adam7 : [Adam7Pass.sequential]
        var passes: [Pass] = []
        var total = 0
        for geometry in geometries {
            let columns = geometry.columns(inWidth: header.width), rows = geometry.rows(inHeight: header.height)
            guard columns > 0, rows > 0 else { continue }
            guard let rowBytes = header.rowBytes(width: columns) else { return nil }
            let (passBytes, overflow) = (rowBytes + 1).multipliedReportingOverflow(by: rows)
            guard !overflow, passBytes <= Int.max - total else { return nil }
            total += passBytes
            passes.append(Pass(geometry: geometry, columns: columns, rows: rows, rowBytes: rowBytes))
        }
        self.passes = passes
        totalFilteredBytes = total
    }

    /// Whether every row has been received.
    var isComplete: Bool { passIndex >= passes.count }

    /// The pass being received (only when not complete).
    var current: Pass { passes[passIndex] }

    /// The image row the current row lands on.
    var imageRow: Int { current.geometry.yStart + row * current.geometry.yStep }

    /// Moves to the next row; returns true when that finished a pass.
    mutating func advance() -> Bool {
        row += 1
        guard row >= current.rows else { return false }
        row = 0
        passIndex += 1
        return true
    }

    /// The largest unfiltered row of any pass.
    var maxRowBytes: Int { passes.map(\.rowBytes).max() ?? 0 }
}
