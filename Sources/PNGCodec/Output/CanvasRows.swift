/// Direct access to the rows of a ``PixelCanvas``, valid only inside ``PixelCanvas/withRows(_:)``.
struct CanvasRows {
    /// First byte of row 0.
    let base: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let rowBytes: Int
    let bytesPerPixel: Int

    /// The first byte of row `y` (0 ..< height, guaranteed by the schedule that computes it).
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * rowBytes }

    /// Copies one whole row of pixels into row `y` (nothing to do if they are already there).
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
        let target = row(y)
        if pass.xStep == 1 {
            // Pass 7: the row is contiguous.
            (target + pass.xStart * bytesPerPixel).update(from: pixels, count: columns * bytesPerPixel)
        } else {
            // The pixel size is a literal in each call so the per-pixel copies are plain loads and stores.
            switch bytesPerPixel {
            case 1: spread(pixels, columns, pass, target, 1)
            case 2: spread(pixels, columns, pass, target, 2)
            case 3: spread(pixels, columns, pass, target, 3)
            case 4: spread(pixels, columns, pass, target, 4)
            case 6: spread(pixels, columns, pass, target, 6)
            case 8: spread(pixels, columns, pass, target, 8)
            default: spread(pixels, columns, pass, target, bytesPerPixel)
            }
        }
        let lastRow = min(y + pass.blockHeight, height)
        var below = y + 1
        while below < lastRow {
            row(below).update(from: target, count: rowBytes)
            below += 1
        }
    }

    /// Writes each pixel `blockWidth` times from its column on (clipped at the right edge).
    @inline(__always)
    private func spread(_ pixels: UnsafePointer<UInt8>, _ columns: Int, _ pass: Adam7Pass,
                        _ target: UnsafeMutablePointer<UInt8>, _ bpp: Int) {
        for column in 0..<columns {
            let x = pass.xStart + column * pass.xStep
            let source = pixels + column * bpp
            let span = min(pass.blockWidth, width - x)
            var destination = target + x * bpp
            for _ in 0..<span {
                for byte in 0..<bpp { destination[byte] = source[byte] }
                destination += bpp
            }
        }
    }
}
