import ImageCore

/// The whole output picture, written row by row while decoding.
///
/// Storage is allocated once (zeroed: black, and transparent where there is alpha, which is
/// what rows not yet received show) and freed in `deinit`. `height` rows of
/// `width × format.bytesPerPixel` bytes, no padding. Example: 3×2 rgb8 → 18 bytes, row 1 at byte 9.
final class PixelCanvas {
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Bytes per row.
    let rowBytes: Int
    private let storage: UnsafeMutableBufferPointer<UInt8>

    /// Allocates a zeroed canvas; nil if its size overflows (the caller checked the limits first).
    init?(width: Int, height: Int, format: PixelFormat) {
        let (row, overflow1) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (total, overflow2) = row.multipliedReportingOverflow(by: height)
        guard !overflow1, !overflow2, total > 0 else { return nil }
        self.width = width
        self.height = height
        self.format = format
        rowBytes = row
        storage = .allocate(capacity: total)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    /// The first byte of row `y` (0 ..< height, guaranteed by the schedule that computes it).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        // The base address exists: the storage is never empty (checked in init).
        storage.baseAddress.unsafelyUnwrapped + y * rowBytes
    }

    /// Copies one whole row of pixels into row `y`.
    func write(row pixels: UnsafePointer<UInt8>, at y: Int) {
        let target = row(y)
        if UnsafePointer(target) != pixels { target.update(from: pixels, count: rowBytes) }
    }

    /// Draws one row of an Adam7 pass: each of its `columns` pixels fills its preview rectangle
    /// (`pass.blockWidth × pass.blockHeight`, clipped to the image; see ``Adam7Pass``).
    ///
    /// The pixels land in row `y` first; then row `y` is copied down over the rectangle's other
    /// rows. Copying the *whole* row is right: the columns this pass does not touch belong to
    /// rectangles of earlier passes, whose rows are aligned to multiples of this pass's block
    /// height, so they already hold the same values in all those rows.
    func fillBlocks(_ pixels: UnsafePointer<UInt8>, columns: Int, pass: Adam7Pass, y: Int) {
        let bpp = format.bytesPerPixel
        let target = row(y)
        for column in 0..<columns {
            let x = pass.xStart + column * pass.xStep
            let source = pixels + column * bpp
            let span = min(pass.blockWidth, width - x)
            var destination = target + x * bpp
            for _ in 0..<span {
                destination.update(from: source, count: bpp)
                destination += bpp
            }
        }
        let lastRow = min(y + pass.blockHeight, height)
        var below = y + 1
        while below < lastRow {
            row(below).update(from: target, count: rowBytes)
            below += 1
        }
    }

    /// A copy of the picture as an `Image`.
    func image(orientation: Orientation, iccProfile: [UInt8]?) -> Image {
        Image(width: width, height: height, format: format, pixels: Array(storage),
              orientation: orientation, iccProfile: iccProfile)
    }
}
