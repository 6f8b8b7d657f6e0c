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
            // Pixels of 1, 2, 4 and 8 bytes move as one word; 3 and 6 as bytes (the size a literal).
            switch bytesPerPixel {
            case 1: spread(pixels, columns, pass, target, as: UInt8.self)
            case 2: spread(pixels, columns, pass, target, as: UInt16.self)
            case 3: spread(pixels, columns, pass, target, 3)
            case 4: spread(pixels, columns, pass, target, as: UInt32.self)
            case 6: spread(pixels, columns, pass, target, 6)
            case 8: spread(pixels, columns, pass, target, as: UInt64.self)
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

    /// ``spread(_:_:_:_:_:)`` for pixels the size of `Word`: one load per pixel and one store per
    /// copy, the block width a literal for every block that the right edge does not clip (29 → 9
    /// instructions per copied pixel under callgrind for rgba8).
    @inline(__always)
    private func spread<Word: FixedWidthInteger>(_ pixels: UnsafePointer<UInt8>, _ columns: Int, _ pass: Adam7Pass,
                                                 _ target: UnsafeMutablePointer<UInt8>, as _: Word.Type) {
        let bpp = MemoryLayout<Word>.size
        // Blocks wholly inside the row: column c starts at xStart + c × xStep and needs blockWidth pixels.
        let room = width - pass.xStart - pass.blockWidth
        let whole = room < 0 ? 0 : min(columns, room / pass.xStep + 1)
        let source = UnsafeRawPointer(pixels)
        let destination = UnsafeMutableRawPointer(target + pass.xStart * bpp)
        let step = pass.xStep * bpp
        switch pass.blockWidth {
        case 8: spreadWhole(source, destination, whole, step, as: Word.self, copies: 8)
        case 4: spreadWhole(source, destination, whole, step, as: Word.self, copies: 4)
        case 2: spreadWhole(source, destination, whole, step, as: Word.self, copies: 2)
        case 1: spreadWhole(source, destination, whole, step, as: Word.self, copies: 1)
        default: spreadWhole(source, destination, whole, step, as: Word.self, copies: pass.blockWidth)
        }
        // The clipped blocks at the right edge (at most one per row).
        for column in whole..<columns {
            let x = pass.xStart + column * pass.xStep
            let pixel = source.loadUnaligned(fromByteOffset: column * bpp, as: Word.self)
            for copy in 0..<min(pass.blockWidth, width - x) {
                UnsafeMutableRawPointer(target).storeBytes(of: pixel, toByteOffset: (x + copy) * bpp, as: Word.self)
            }
        }
    }

    /// Writes `count` pixels `copies` times each, the blocks `step` bytes apart.
    @inline(__always)
    private func spreadWhole<Word: FixedWidthInteger>(_ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer,
                                                      _ count: Int, _ step: Int, as _: Word.Type, copies: Int) {
        let bpp = MemoryLayout<Word>.size
        var from = source, to = destination
        for _ in 0..<count {
            let pixel = from.loadUnaligned(as: Word.self)
            for copy in 0..<copies { to.storeBytes(of: pixel, toByteOffset: copy * bpp, as: Word.self) }
            from += bpp
            to += step
        }
    }
}
