import ImageCore

/// The whole output picture, written row by row while decoding.
///
/// The pixels live in one array, allocated once; rows not yet received show as zero (black, and
/// transparent where there is alpha): `height` rows of `width × bytesPerPixel`
/// bytes, no padding. Example: 3×2 rgb8 → 18 bytes, row 1 at byte 9. An array rather than a raw
/// allocation so that ``image(orientation:iccProfile:)`` can hand it out without copying: the
/// finished image shares the storage, and a preview taken mid-decode is copied (copy-on-write)
/// only when the next row is written.
final class PixelCanvas {
    let width: Int
    let height: Int
    let format: PixelFormat
    /// Bytes per row.
    let rowBytes: Int
    /// `@exclusivity(unchecked)`: written only inside ``withRows(_:)``, which nothing re-enters.
    @exclusivity(unchecked) private var pixels: [UInt8]
    /// Rows from here on may hold whatever the allocation held: neither written nor zeroed yet
    /// (``height`` once there are none). See ``init(width:height:format:rowsInOrder:)``.
    private var unsetFrom: Int

    /// Allocates a canvas; nil if its size overflows (the caller checked the limits first).
    ///
    /// `rowsInOrder`: the decoder writes rows top to bottom and reads only rows it wrote (a
    /// non-interlaced image). Then the storage is not zeroed up front (a whole decode writes every
    /// row, and zeroing a 24 MB canvas costs as much as 4 % of decoding it); the rows not yet
    /// written are zeroed once, by the first ``image(orientation:iccProfile:rowsWritten:)`` that
    /// finds any, so no picture ever shows bytes the decoder did not write. Otherwise (Adam7
    /// draws blocks all over) it is zeroed at once.
    init?(width: Int, height: Int, format: PixelFormat, rowsInOrder: Bool) {
        let (row, overflow1) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (total, overflow2) = row.multipliedReportingOverflow(by: height)
        guard !overflow1, !overflow2, total > 0 else { return nil }
        self.width = width
        self.height = height
        self.format = format
        rowBytes = row
        if rowsInOrder {
            // UInt8 storage the closure leaves as allocated; `unsetFrom` keeps it from being seen.
            pixels = [UInt8](unsafeUninitializedCapacity: total) { _, initialized in initialized = total }
            unsetFrom = 0
        } else {
            pixels = [UInt8](repeating: 0, count: total)
            unsetFrom = height
        }
    }

    /// Runs `body` with direct access to the rows (one exclusive access for a whole batch of rows).
    ///
    /// - Throws: whatever `body` throws; `internal` if the storage had no address, which init rules
    ///   out (it rejects empty canvases), so no input reaches it.
    func withRows<R>(_ body: (CanvasRows) throws -> R) throws -> R {
        let width = width, height = height, rowBytes = rowBytes, bpp = format.bytesPerPixel
        return try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                throw ImageDecodingError(.internal, at: nil, "PNG canvas \(width)×\(height) has no storage")
            }
            return try body(CanvasRows(base: base, width: width, height: height, rowBytes: rowBytes, bytesPerPixel: bpp))
        }
    }

    /// The picture as an `Image` (sharing the storage until the canvas is written again).
    /// `rowsWritten`: the rows above it are written (for a canvas filled in order); the ones below
    /// are zeroed first if they were never set.
    func image(orientation: Orientation, iccProfile: [UInt8]?, rowsWritten: Int) -> Image {
        if unsetFrom < height {
            let first = min(max(unsetFrom, rowsWritten), height)
            pixels.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                (base + first * rowBytes).update(repeating: 0, count: (height - first) * rowBytes)
            }
            unsetFrom = height
        }
        return Image(width: width, height: height, format: format, pixels: pixels, orientation: orientation, iccProfile: iccProfile)
    }
}
