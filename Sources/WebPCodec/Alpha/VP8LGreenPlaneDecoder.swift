/// Decodes the green channel of a VP8L stream that ``VP8LGreenPlan`` accepts into one byte
/// per pixel: the pixel loop on bytes, then the predictor and colour indexing on bytes.
/// Used for lossless `ALPH` data, where it does a quarter of the 32-bit path's memory traffic.
enum VP8LGreenPlaneDecoder {
    /// The `width × height` green plane of the stream whose `header` was just read by `reader`.
    static func decode(header: VP8LStreamHeader, plan: VP8LGreenPlan, reader: inout VP8LBitReader,
                       width: Int, height: Int) throws(VP8LFailure) -> [UInt8] {
        let codedWidth = header.codedWidth
        var coded = try decodeResiduals(header: header, reader: &reader, height: height)
        if let predictor = plan.predictor {
            guard predictor.width == codedWidth else {
                throw .invalid("VP8L predictor width \(predictor.width) differs from the coded width \(codedWidth)")
            }
            undoPredictor(&coded, width: codedWidth, height: height, sizeBits: predictor.sizeBits,
                          blocksPerRow: predictor.blocksPerRow, modes: predictor.modes)
        }
        guard let palette = plan.palette else { return coded }
        guard palette.width == width else {
            throw .invalid("VP8L colour-indexing width \(palette.width) differs from the image width \(width)")
        }
        return expandPalette(coded, codedWidth: codedWidth, width: width, height: height,
                             widthBits: palette.widthBits, greens: palette.greens)
    }

    /// The green bytes of the coded (residual) pixels: on bytes without a colour cache, else
    /// through the 32-bit pixel loop (the cache hashes all four channels), green taken after.
    static func decodeResiduals(header: VP8LStreamHeader, reader: inout VP8LBitReader, height: Int) throws(VP8LFailure) -> [UInt8] {
        let codedWidth = header.codedWidth
        // Fully written on success (the pixel loop, or extractGreen); thrown away otherwise.
        var coded = [UInt8].unfilled(count: codedWidth * height)
        let outcome: VP8LPixelDecoder.Outcome
        if header.codes.cacheBits == 0 {
            outcome = coded.withUnsafeMutableBufferPointer { plane in
                VP8LGreenPixelDecoder.decode(reader: &reader, codes: header.codes, width: codedWidth, plane: plane)
            }
        } else {
            var pixels = [UInt32].unfilled(count: codedWidth * height)
            var cache = [UInt32](repeating: 0, count: 1 << header.codes.cacheBits)
            var index = 0
            outcome = pixels.withUnsafeMutableBufferPointer { out in
                cache.withUnsafeMutableBufferPointer { cacheBuffer in
                    VP8LPixelDecoder.decode(reader: &reader, codes: header.codes, width: codedWidth, pixels: out,
                                            index: &index, cache: cacheBuffer, stopEarly: false)
                }
            }
            extractGreen(pixels, into: &coded)
        }
        switch outcome {
        case .complete: return coded
        case .suspended, .overran: throw .invalid("VP8L data ends before the last pixel")
        case .invalid(let message): throw .invalid(message)
        }
    }

    /// `green[i] = pixels[i] >> 8` (same counts), four pixels per step.
    static func extractGreen(_ pixels: [UInt32], into green: inout [UInt8]) {
        pixels.withUnsafeBufferPointer { source in
            green.withUnsafeMutableBufferPointer { out in
                guard let from = source.baseAddress, let to = out.baseAddress, source.count == out.count else { return }
                let count = source.count
                var i = 0
                while i &+ 4 <= count {
                    let four = UnsafeRawPointer(from + i).loadUnaligned(as: SIMD4<UInt32>.self) &>> 8
                    to[i] = UInt8(truncatingIfNeeded: four[0]); to[i &+ 1] = UInt8(truncatingIfNeeded: four[1])
                    to[i &+ 2] = UInt8(truncatingIfNeeded: four[2]); to[i &+ 3] = UInt8(truncatingIfNeeded: four[3])
                    i &+= 4
                }
                while i < count {
                    to[i] = UInt8(truncatingIfNeeded: from[i] >> 8)
                    i &+= 1
                }
            }
        }
    }

    /// Runs ``VP8LGreenPredictor`` over every row, in place (row y − 1 is final when row y runs).
    static func undoPredictor(_ plane: inout [UInt8], width: Int, height: Int, sizeBits: Int, blocksPerRow: Int,
                              modes: [UInt32]) {
        guard width > 0, height > 0 else { return }
        plane.withUnsafeMutableBufferPointer { all in
            modes.withUnsafeBufferPointer { modeBuffer in
                guard let base = all.baseAddress, all.count >= width * height else { return }
                for y in 0..<height {
                    let row = base + y * width
                    VP8LGreenPredictor.undo(row: row, previous: UnsafePointer(y == 0 ? row : row - width), y: y,
                                            width: width, sizeBits: sizeBits, blocksPerRow: blocksPerRow, modes: modeBuffer)
                }
            }
        }
    }

    /// Section 4.4 on bytes: each index (packed `1 << widthBits` per coded byte, low bits first)
    /// becomes its palette entry's green.
    static func expandPalette(_ coded: [UInt8], codedWidth: Int, width: Int, height: Int, widthBits: Int,
                              greens: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 256)
        for (i, green) in greens.prefix(256).enumerated() { table[i] = green }
        if widthBits == 0 { return coded.map { table[Int($0)] } }
        var plane = [UInt8](repeating: 0, count: width * height)
        let bitsPerIndex = 8 >> widthBits
        let indexMask = (1 << bitsPerIndex) - 1
        let perPixelMask = (1 << widthBits) - 1
        coded.withUnsafeBufferPointer { source in
            table.withUnsafeBufferPointer { lookup in
                plane.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        let packedRow = y * codedWidth, row = y * width
                        for x in 0..<width {
                            let packed = Int(source[packedRow + (x >> widthBits)])
                            out[row + x] = lookup[(packed >> ((x & perPixelMask) * bitsPerIndex)) & indexMask]
                        }
                    }
                }
            }
        }
        return plane
    }
}
