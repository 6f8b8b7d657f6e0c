import ImageCore

extension JPEGDecoder {
    /// Runs parsing steps until the buffered bytes are used up or the image ends. Each step
    /// checks that its bytes are buffered before consuming anything.
    func process() throws {
        while true {
            let bytes = input.readable
            let base = input.consumedOffset
            switch phase {
            case .signature:
                guard bytes.count >= 2 else { return }
                bytesExaminedCount += 2
                guard bytes[0] == 0xFF && bytes[1] == JPEGMarker.soi else {
                    throw ImageDecodingError(.invalidSignature, at: base,
                                             "not a JPEG file: starts with 0x\(JPEGMarker.hex(bytes[0])) 0x\(JPEGMarker.hex(bytes[1])) instead of 0xff 0xd8 (SOI)")
                }
                input.consume(2)
                phase = .markers
            case .markers:
                switch MarkerSearch.next(in: bytes, from: 0) {
                case .needMoreInput(let resumeAt, let skipped):
                    bytesExaminedCount += resumeAt
                    skippedBytes += skipped
                    input.consume(resumeAt)
                    return
                case .found(let code, let start, let end, let skipped):
                    bytesExaminedCount += end
                    skippedBytes += skipped
                    if skippedBytes > 0 {
                        warn(Self.extraneousBytesWarning(skippedBytes, before: code, at: base + start), affectsPixels: false)
                        skippedBytes = 0
                    }
                    input.consume(end)
                    try handleMarker(code, at: base + start)
                }
            case .segment(let marker, let offset):
                guard bytes.count >= 2 else { return }
                let length = Int(bytes[0]) << 8 | Int(bytes[1])
                guard length >= 2 else {
                    let problem = ImageDecodingError(.invalidData, at: base,
                                                     "\(JPEGMarker.name(marker)) segment declares length \(length); at least 2 is required")
                    // libjpeg skips APPn and COM segments by their length minus 2 and skips
                    // nothing when that is negative: the marker search goes on after the length.
                    guard marker == JPEGMarker.com || (0xE0...0xEF).contains(marker) else { throw problem }
                    warn(problem, affectsPixels: false)
                    bytesExaminedCount += 2
                    input.consume(2)
                    phase = .markers
                    continue
                }
                guard bytes.count >= length else { return }
                bytesExaminedCount += length
                var reader = SegmentReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[2..<length]),
                                           streamOffset: base + 2, name: JPEGMarker.name(marker))
                phase = .markers
                try parseSegment(marker, reader: &reader, markerOffset: offset)
                input.consume(length)
            case .scan(let scan):
                try continueScan(scan)
                if case .scan = phase { return }
            case .done:
                input.consumeAll()
                return
            case .failed:
                return
            }
        }
    }

    /// The warning for `count` extraneous bytes found before marker `code` at stream offset `offset`.
    static func extraneousBytesWarning(_ count: Int, before code: UInt8, at offset: Int) -> ImageDecodingError {
        ImageDecodingError(.invalidData, at: offset, "\(count) extraneous byte(s) before marker \(JPEGMarker.name(code))")
    }

    /// Acts on a marker just found at stream offset `offset`.
    private func handleMarker(_ code: UInt8, at offset: Int) throws {
        switch code {
        case JPEGMarker.eoi:
            try endOfImage(at: offset)
        case JPEGMarker.soi:
            throw ImageDecodingError(.invalidData, at: offset, "second start-of-image marker (SOI) inside the image")
        case JPEGMarker.tem, 0xD0...0xD7:
            // T.81 B.1.1.3: markers without a segment; a stray RSTn between segments is ignored, as in libjpeg.
            return
        case 0xC0...0xCF, JPEGMarker.sos, JPEGMarker.dqt, JPEGMarker.dnl, JPEGMarker.dri, 0xE0...0xEF, JPEGMarker.com:
            phase = .segment(marker: code, offset: offset)
        case 0xDE, 0xDF:
            throw ImageDecodingError(.unsupported, at: offset, "hierarchical JPEG (\(code == 0xDE ? "DHP" : "EXP") marker) is not supported")
        default:
            throw ImageDecodingError(.invalidData, at: offset, "unknown marker 0xff\(JPEGMarker.hex(code))")
        }
    }

    /// Parses one complete marker segment.
    private func parseSegment(_ marker: UInt8, reader: inout SegmentReader, markerOffset: Int) throws {
        switch marker {
        case JPEGMarker.dqt:
            try quantizationTables.parse(&reader)
        case JPEGMarker.dht:
            try huffmanTables.parse(&reader)
        case JPEGMarker.dri:
            guard reader.remaining == 2 else { throw reader.invalid("segment must hold exactly 2 bytes, found \(reader.remaining)") }
            restartInterval = try reader.u16()
        case JPEGMarker.sos:
            try startScan(&reader, markerOffset: markerOffset)
        case JPEGMarker.dac:
            try arithmeticConditioning.parse(&reader)
        case JPEGMarker.dnl, JPEGMarker.com, 0xE3...0xED, 0xEF:
            return
        case 0xE0:
            if APPSegmentInfo.isJFIF(reader.bytes) { sawJFIF = true }
        case 0xE1:
            if !sawExif, let found = APPSegmentInfo.exifOrientation(reader.bytes) {
                sawExif = true
                orientation = found
                header?.orientation = found
            }
            if options.usesEmbeddedThumbnail, frameState == nil, thumbnailBytes == nil,
               let range = ExifThumbnail.jpegRange(inAPP1: reader.bytes) {
                thumbnailBytes = Array(reader.bytes[range])
            }
        case 0xE2:
            if ICCProfileAssembler.isICCChunk(reader.bytes) {
                try iccAssembler.add(reader.bytes, limit: options.limits.maxMetadataBytes, at: reader.streamOffset)
                iccProfile = iccAssembler.profile
                header?.iccProfile = iccProfile
            }
        case 0xEE:
            if let transform = APPSegmentInfo.adobeTransform(reader.bytes) { adobeTransform = transform }
        default:
            // SOFn.
            try startFrame(marker, reader: &reader, markerOffset: markerOffset)
        }
    }

    /// SOFn: checks the frame type and limits, fixes the output geometry and allocates the picture.
    private func startFrame(_ marker: UInt8, reader: inout SegmentReader, markerOffset: Int) throws {
        guard frameState == nil else {
            throw ImageDecodingError(.invalidData, at: markerOffset, "second frame header (\(JPEGMarker.name(marker))) in one image")
        }
        if marker == 0xC8 {
            throw ImageDecodingError(.unsupported, at: markerOffset, "JPEG extension frames (JPG marker) are not supported")
        }
        try FrameHeader.checkSupported(marker: marker, at: markerOffset)
        let parsed = try FrameHeader.parse(&reader, marker: marker)
        _ = try options.limits.checkDimensions(width: parsed.width, height: parsed.height, at: markerOffset, format: "JPEG")
        // Lossless images are not scaled (nor are they by libjpeg-turbo).
        let frameLayout = try FrameLayout(frame: parsed, scale: parsed.isLossless ? .full : options.scale, at: markerOffset)
        let components = parsed.components.count
        naturalFormat = components == 1 ? .gray8 : (components == 4 && (options.preferredFormat == .cmyk8 || keepsCMYKForProfile) ? .cmyk8 : .rgb8)
        if parsed.precision > 8 { naturalFormat = components == 1 ? .gray16 : .rgb16 }
        if parsed.isLossless && parsed.precision <= 8 { naturalFormat = components == 1 ? .gray8 : .rgb8 }
        let (pixels, overflow1) = frameLayout.outputWidth.multipliedReportingOverflow(by: frameLayout.outputHeight)
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: naturalFormat.bytesPerPixel)
        guard !overflow1, !overflow2 else {
            throw ImageDecodingError(.limitExceeded, at: markerOffset, "JPEG output size overflows")
        }
        switch output {
        case .ownPicture:
            // Every byte is written before it is read (see `canvasRowsWritten`).
            canvas = LargeBuffer.uninitializedBytes(count: bytes)
        case .callerMemory(let memory, let bytesPerRow):
            do {
                try checkCallerMemory(memory, bytesPerRow: bytesPerRow, layout: frameLayout, at: markerOffset)
            } catch {
                output = .headerOnly   // nothing is ever written to memory too small
                throw error
            }
        case .headerOnly:
            break
        }
        canvasRowsWritten = 0
        frameState = FrameState(frame: parsed, layout: frameLayout)
        var outputFormat = keepsCMYKForProfile && options.preferredFormat != .cmyk8 ? .rgb8 : naturalFormat
        if let preferred = options.preferredFormat, preferred != .cmyk8 { outputFormat = preferred }
        header = ImageHeader(fileFormat: .jpeg, width: frameLayout.outputWidth, height: frameLayout.outputHeight,
                             pixelFormat: outputFormat, bitDepth: parsed.precision, isProgressive: parsed.isProgressive,
                             orientation: orientation, iccProfile: iccProfile)
        if let bytes = thumbnailBytes, parsed.precision == 8 {
            thumbnailBytes = nil
            thumbnail = bytes.withUnsafeBytes { ExifThumbnail.decode($0, range: 0..<bytes.count, format: naturalFormat) }
            header?.hasEmbeddedThumbnail = thumbnail != nil
            // The first picture handed out now shows the thumbnail.
            if thumbnail != nil { changedSinceLastCall = true }
        }
        changedSinceLastCall = true
        if case .headerOnly = output { phase = .done }
    }

    /// EOI: completes the picture.
    private func endOfImage(at offset: Int) throws {
        guard let frameState else {
            throw ImageDecodingError(.invalidData, at: offset, "end of image (EOI) before any frame header (SOF)")
        }
        guard scansStarted > 0 else {
            throw ImageDecodingError(.invalidData, at: offset, "end of image (EOI) before the first scan (SOS)")
        }
        if let missing = frameState.componentWasScanned.firstIndex(of: false) {
            warn(ImageDecodingError(.invalidData, at: offset,
                                    "end of image (EOI) before component \(missing + 1) had a scan; it decodes as zero"),
                 affectsPixels: true)
        }
        // The scans still on the worker come before this marker.
        try joinScanWorker()
        phase = .done
        // Rows past the last scan's damage get libjpeg's smoothing for incomplete data.
        _ = preview?.endEarly()
        renderDirtyRows()
        changedSinceLastCall = true
    }
}
