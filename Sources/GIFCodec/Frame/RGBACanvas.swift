import ImageCore

/// The animation canvas: `width × height` RGBA8 pixels, rows top to bottom, 4 bytes per pixel,
/// all transparent black (0, 0, 0, 0) at first. Example: 3×2 → 24 bytes, pixel (1, 1) at byte 16.
///
/// An array, so ``image()`` hands the pixels out without copying; the copy happens (once) when
/// the canvas is written next.
final class RGBACanvas {
    let width: Int
    let height: Int
    private var pixels: [UInt8]

    /// A transparent canvas; the caller checked the size against the limits.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The canvas as an image (sharing the storage until the next write).
    func image() -> Image {
        Image(width: width, height: height, format: .rgba8, pixels: pixels)
    }

    /// Runs `body` with the pixel bytes (one exclusive access for a batch of row writes).
    func withPixels(_ body: (UnsafeMutableRawPointer) -> Void) {
        pixels.withUnsafeMutableBytes { buffer in
            // Never empty: width and height are at least 1 (checked when the header was read).
            guard let base = buffer.baseAddress else { return }
            body(base)
        }
    }

    /// The pixels of `region` (rows of `region.width × 4` bytes), to restore later.
    func copy(_ region: FrameRegion) -> [UInt8] {
        var saved = [UInt8](repeating: 0, count: region.width * region.height * 4)
        let rowBytes = region.width * 4
        for row in 0..<region.height {
            let start = ((region.y + row) * width + region.x) * 4
            saved.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes, with: pixels[start..<start + rowBytes])
        }
        return saved
    }

    /// Puts back pixels saved by ``copy(_:)`` for the same region.
    func restore(_ region: FrameRegion, from saved: [UInt8]) {
        let rowBytes = region.width * 4
        for row in 0..<region.height {
            let start = ((region.y + row) * width + region.x) * 4
            pixels.replaceSubrange(start..<start + rowBytes, with: saved[row * rowBytes..<(row + 1) * rowBytes])
        }
    }

    /// Sets `region` to transparent black (GIF disposal 2 as browsers do it).
    func clear(_ region: FrameRegion) {
        let rowBytes = region.width * 4
        for row in 0..<region.height {
            let start = ((region.y + row) * width + region.x) * 4
            pixels.replaceSubrange(start..<start + rowBytes, with: repeatElement(0, count: rowBytes))
        }
    }
}
