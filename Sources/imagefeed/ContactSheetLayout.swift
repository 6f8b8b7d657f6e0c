/// Where everything goes on the demo's contact sheet: one row per picture, each row a series of
/// cells ``cellWidth`` wide (height from the picture's aspect ratio), ``gap`` pixels between cells
/// and rows and around the edge.
///
/// Example: two 3:2 pictures with 6 cells each: cells 200 × 133; the sheet is
/// 8 + 6 · 200 + 5 · 8 + 8 = 1256 wide and 8 + 133 + 8 + 133 + 8 = 290 high. (Cells of 200
/// rather than 240 keep the README's copy of a two-row sheet under 500 KB.)
struct ContactSheetLayout: Equatable {
    /// Width of every cell.
    static let cellWidth = 200
    /// Space between cells, between rows and around the sheet.
    static let gap = 8
    /// Most cells in a row (the frames shown are picked evenly from first preview to final).
    static let maxColumns = 6

    /// Cells in each row.
    let columns: [Int]
    /// Height of each row's cells.
    let rowHeights: [Int]

    /// A layout for rows of `columns[i]` cells showing pictures of `sizes[i]`.
    init(rows: [(columns: Int, pictureWidth: Int, pictureHeight: Int)]) {
        columns = rows.map { min(max($0.columns, 0), Self.maxColumns) }
        rowHeights = rows.map { Self.cellHeight(pictureWidth: $0.pictureWidth, pictureHeight: $0.pictureHeight) }
    }

    /// The cell height that keeps a `pictureWidth` × `pictureHeight` picture's aspect ratio at
    /// ``cellWidth`` wide, rounded to the nearest pixel (at least 1): 900 × 600 → 133.
    static func cellHeight(pictureWidth: Int, pictureHeight: Int) -> Int {
        let width = max(pictureWidth, 1)
        return max(1, (pictureHeight * cellWidth + width / 2) / width)
    }

    /// Width of the sheet: its widest row plus the gaps.
    var width: Int {
        let widest = columns.max() ?? 0
        return Self.gap + widest * (Self.cellWidth + Self.gap)
    }

    /// Height of the sheet: every row plus the gaps.
    var height: Int {
        Self.gap + rowHeights.reduce(0) { $0 + $1 + Self.gap }
    }

    /// Top-left corner of cell `column` in row `row`.
    func origin(row: Int, column: Int) -> (x: Int, y: Int) {
        let y = Self.gap + rowHeights.prefix(row).reduce(0) { $0 + $1 + Self.gap }
        return (Self.gap + column * (Self.cellWidth + Self.gap), y)
    }
}
