import ImageCore

/// Decodes a whole `ALPH` chunk (WebP container spec, "Alpha") into one alpha byte per pixel.
///
/// Header byte, from the high bits: reserved (2, must be 0), pre-processing (2: 0 or 1, a hint
/// only), filtering method (2), compression (2: 0 raw, 1 VP8L without its 5-byte header, the
/// alpha in the green channel). Pre-processing is ignored, as libwebp does unless asked to dither.
enum AlphaPlaneDecoder {
    /// Decodes `payload` for a `width × height` image; the error message says what was wrong.
    static func decode(_ payload: [UInt8], width: Int, height: Int, maxTableEntries: Int) -> Result<[UInt8], VP8LFailure> {
        guard let headerByte = payload.first else { return .failure(.invalid("ALPH chunk is empty")) }
        let compression = Int(headerByte & 3)
        let filterNumber = Int(headerByte >> 2 & 3)
        let preprocessing = Int(headerByte >> 4 & 3)
        let reserved = Int(headerByte >> 6)
        guard compression <= 1, preprocessing <= 1, reserved == 0, let filter = AlphaFilter(rawValue: filterNumber) else {
            return .failure(.invalid("ALPH header byte 0x\(String(headerByte, radix: 16)) has compression \(compression), "
                                     + "pre-processing \(preprocessing), reserved \(reserved)"))
        }
        var plane: [UInt8]
        if compression == 0 {
            guard payload.count - 1 >= width * height else {
                return .failure(.invalid("ALPH raw data has \(payload.count - 1) bytes, the image needs \(width * height)"))
            }
            plane = Array(payload[1...(width * height)])
        } else {
            let decoded = payload.withUnsafeBytes { raw in
                decodeLossless(UnsafeRawBufferPointer(rebasing: raw[1...]), width: width, height: height,
                               maxTableEntries: maxTableEntries)
            }
            switch decoded {
            case .success(let green): plane = green
            case .failure(let failure): return .failure(failure)
            }
        }
        plane.withUnsafeMutableBufferPointer { all in
            for y in 0..<height {
                let row = UnsafeMutableBufferPointer(rebasing: all[(y * width)..<((y + 1) * width)])
                let previous = y == 0 ? nil : UnsafeBufferPointer(rebasing: all[((y - 1) * width)..<(y * width)])
                filter.unfilter(row: row, previous: previous)
            }
        }
        return .success(plane)
    }

    /// The green plane of a VP8L stream without its 5-byte header: on bytes when
    /// ``VP8LGreenPlan`` accepts the stream (and `allowBytePath`), else through the 32-bit
    /// ``VP8LImageDecoder`` (tests compare the two).
    static func decodeLossless(_ stream: UnsafeRawBufferPointer, width: Int, height: Int, maxTableEntries: Int,
                               allowBytePath: Bool = true) -> Result<[UInt8], VP8LFailure> {
        do throws(VP8LFailure) {
            if allowBytePath {
                var reader = VP8LBitReader()
                reader.attach(stream)
                var codeReader = VP8LCodeReader(reader: reader, maxTableEntries: maxTableEntries)
                let header: VP8LStreamHeader
                do {
                    header = try VP8LStreamHeader.read(&codeReader, width: width, height: height)
                } catch .needMoreData {
                    throw .invalid("VP8L data ends inside its transforms or prefix codes")
                }
                if let plan = VP8LGreenPlan(header) {
                    return .success(try VP8LGreenPlaneDecoder.decode(header: header, plan: plan, reader: &codeReader.reader,
                                                                     width: width, height: height))
                }
            }
            var plane = [UInt8](repeating: 0, count: width * height)
            let decoder = VP8LImageDecoder(width: width, height: height, maxTableEntries: maxTableEntries)
            decoder.rowSink = { y, row in
                for x in 0..<width { plane[y * width + x] = UInt8(truncatingIfNeeded: row[x] >> 8) }
            }
            _ = try decoder.run(window: stream, isFinal: true)
            return .success(plane)
        } catch {
            return .failure(error)
        }
    }
}
