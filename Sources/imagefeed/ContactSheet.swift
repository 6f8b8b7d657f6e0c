import ImageCore

/// The demo's summary picture: one row per loaded picture, each a few frames from its first
/// preview to its final image (picked by ``FrameSelection``), shrunk to the cells of
/// ``ContactSheetLayout``, so each row reads left to right as the picture sharpening.
struct ContactSheet {
    /// Grey level of the gaps and of whatever transparent pixels let through (white).
    static let background: UInt8 = 255

    /// For each row, the indices of the frames drawn, left to right.
    let picks: [[Int]]
    /// Where the cells are.
    let layout: ContactSheetLayout
    /// The sheet (`rgb8`).
    let image: Image

    /// Draws a sheet for `rows`, each the frames of one picture: previews, then the final image
    /// (which sets the row's cell height). An empty row stays blank.
    init(rows: [[Image]]) {
        let cellWidth = ContactSheetLayout.cellWidth
        var thumbnailRows: [[Image]] = []
        var picks: [[Int]] = []
        for frames in rows {
            let height = ContactSheetLayout.cellHeight(pictureWidth: frames.last?.width ?? 1, pictureHeight: frames.last?.height ?? 1)
            let thumbnails = frames.map { ThumbnailScaler.scale($0, width: cellWidth, height: height, background: Self.background) }
            guard let final = thumbnails.last else {
                picks.append([])
                thumbnailRows.append([])
                continue
            }
            let distances = thumbnails.map { FrameSelection.distance($0, final) }
            let picked = FrameSelection.pick(distances: distances, count: ContactSheetLayout.maxColumns)
            picks.append(picked)
            thumbnailRows.append(picked.map { thumbnails[$0] })
        }
        let layout = ContactSheetLayout(rows: zip(rows, picks).map { frames, picked in
            (picked.count, frames.last?.width ?? 1, frames.last?.height ?? 1)
        })
        var sheet = Image(width: layout.width, height: layout.height, format: .rgb8,
                          pixels: [UInt8](repeating: Self.background, count: layout.width * layout.height * 3))
        for (row, cells) in thumbnailRows.enumerated() {
            for (column, cell) in cells.enumerated() {
                let origin = layout.origin(row: row, column: column)
                Self.paste(cell, into: &sheet, x: origin.x, y: origin.y)
            }
        }
        self.picks = picks
        self.layout = layout
        self.image = sheet
    }

    /// Copies the `rgb8` picture `cell` into the `rgb8` `sheet` with its top-left corner at (x, y);
    /// the layout guarantees it fits.
    static func paste(_ cell: Image, into sheet: inout Image, x: Int, y: Int) {
        let rowBytes = cell.bytesPerRow, sheetRowBytes = sheet.bytesPerRow
        for row in 0..<cell.height {
            let from = row * rowBytes, to = (y + row) * sheetRowBytes + x * 3
            sheet.pixels.replaceSubrange(to..<(to + rowBytes), with: cell.pixels[from..<(from + rowBytes)])
        }
    }
}
