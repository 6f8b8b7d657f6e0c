import ImageCore

/// The whole output picture, written row by row while decoding.
///
/// The pixels live in one array, allocated once and zeroed (black, and transparent where there is
/// alpha, which is what rows not yet received show): `height` rows of `width × bytesPerPixel`
/// bytes, no padding. Example: 3×2 rgb8 → 18 bytes, row 1 at byte 9. The array is made when it is
/// first used, not in `init` (the size is checked there): with two threads that is on the worker,
/// which draws the first row, so zeroing the picture (and the page faults of a fresh allocation,
/// 24 MB for a 6 Mpix RGBA image) is not in the inflating thread's share. An array rather than a raw
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
    /// Empty until first used (see the type's documentation), then `byteCount` bytes.
    @exclusivity(unchecked) private var pixels: [UInt8] = []
    private let byteCount: Int

    /// Sets up a canvas (its zeroed pixels are made on first use); nil if its size overflows (the
    /// caller checked the limits first).
    init?(width: Int, height: Int, format: PixelFormat) {
        let (row, overflow1) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (total, overflow2) = row.multipliedReportingOverflow(by: height)
        guard !overflow1, !overflow2, total > 0 else { return nil }
        self.width = width
        self.height = height
        self.format = format
        rowBytes = row
        byteCount = total
    }

    /// Makes the zeroed pixels on first use.
    private func allocateIfNeeded() {
        if pixels.isEmpty { pixels = [UInt8](repeating: 0, count: byteCount) }
    }

    /// Runs `body` with direct access to the rows (one exclusive access for a whole batch of rows).
    ///
    /// - Throws: whatever `body` throws; `internal` if the storage had no address, which init rules
    ///   out (it rejects empty canvases), so no input reaches it.
    func withRows<R>(_ body: (CanvasRows) throws -> R) throws -> R {
        allocateIfNeeded()
        let width = width, height = height, rowBytes = rowBytes, bpp = format.bytesPerPixel
        return try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                throw ImageDecodingError(.internal, at: nil, "PNG canvas \(width)×\(height) has no storage")
            }
            return try body(CanvasRows(base: base, width: width, height: height, rowBytes: rowBytes, bytesPerPixel: bpp))
        }
    }

    /// The picture as an `Image` (sharing the storage until the canvas is written again).
    func image(orientation: Orientation, iccProfile: [UInt8]?) -> Image {
        allocateIfNeeded()
        return Image(width: width, height: height, format: format, pixels: pixels, orientation: orientation, iccProfile: iccProfile)
    }
}
