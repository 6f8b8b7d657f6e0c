import ImageCore

/// Decodes one image bitstream of a WebP file (the `VP8L` or `VP8 ` chunk payload of a still
/// image or of one animation frame, plus its `ALPH` data) into RGBA rows, from windows of
/// bytes that arrive over time.
final class WebPFrameDecoder {
    /// Which bitstream the chunk holds.
    enum Bitstream {
        /// `VP8L`, RFC 9649.
        case lossless
        /// `VP8 `, RFC 6386, with the alpha plane of an `ALPH` chunk if there was one.
        case lossy(alpha: [UInt8]?)
    }

    /// The most prefix-table entries a VP8L stream may build: 16 Mi entries (64 MiB). Real files
    /// use a few hundred groups of 5 codes (about 1 300 entries each); a hostile one could ask
    /// for 65 536 groups from a few bytes each.
    static let maxTableEntries = 1 << 24

    let bitstream: Bitstream
    let limits: Limits
    /// File offset of the chunk payload, for error offsets.
    let payloadOffset: Int
    /// Size of the chunk payload.
    let payloadSize: Int
    /// The size the container requires (VP8X canvas or ANMF frame), if any.
    let requiredSize: (width: Int, height: Int)?

    /// Known once the bitstream's own header is read.
    private(set) var width = 0
    private(set) var height = 0
    /// libwebp's `has_alpha`: the VP8L alpha hint, or an `ALPH` chunk for VP8.
    private(set) var hasAlpha = false
    /// Pixels in ``format``, rows `0 ..< completedRows` final, the rest zero.
    private(set) var pixels: [UInt8] = []
    /// `rgba8` when the image has alpha (or ``alwaysAlpha``), else `rgb8`.
    private(set) var format = PixelFormat.rgb8
    /// Output RGBA even without alpha (animation frames; lossy images whose VP8X says alpha).
    let alwaysAlpha: Bool
    /// Rows of ``rgba`` that hold final pixels.
    private(set) var completedRows = 0
    /// Payload bytes consumed so far.
    private(set) var consumed = 0

    private enum Stage {
        case bitstreamHeader
        case lossless(VP8LImageDecoder)
        case lossy(VP8ImageDecoder)
        case complete
    }
    private var stage = Stage.bitstreamHeader

    init(bitstream: Bitstream, limits: Limits, payloadOffset: Int, payloadSize: Int,
         requiredSize: (width: Int, height: Int)?, alwaysAlpha: Bool) {
        self.alwaysAlpha = alwaysAlpha
        self.bitstream = bitstream
        self.limits = limits
        self.payloadOffset = payloadOffset
        self.payloadSize = payloadSize
        self.requiredSize = requiredSize
    }

    /// Whether the bitstream header has been read (``width``, ``height``, ``hasAlpha`` known).
    var hasHeader: Bool {
        if case .bitstreamHeader = stage { return false }
        return true
    }

    /// Whether every row is decoded.
    var isComplete: Bool {
        if case .complete = stage { return true }
        return false
    }

    /// Bytes of input examined.
    var bytesExamined: Int {
        switch stage {
        case .lossless(let decoder): return consumed + decoder.bytesExamined
        case .lossy(let decoder): return consumed + decoder.bytesExamined
        default: return consumed
        }
    }


    /// Decodes as far as `window` (the next unread payload bytes) allows; returns the bytes used.
    /// `window` reaches the payload's end exactly when `consumed + window.count == payloadSize`.
    /// `force` (at the end of input) retries work put off until more data came.
    func run(window: UnsafeRawBufferPointer, force: Bool = false) throws(ImageDecodingError) -> Int {
        let isFinal = consumed + window.count >= payloadSize
        var used = 0
        if case .bitstreamHeader = stage {
            used = try readBitstreamHeader(window, isFinal: isFinal)
            consumed += used
            if used == 0 { return 0 }
        }
        if case .lossless(let decoder) = stage {
            let rest = UnsafeRawBufferPointer(rebasing: window[used...])
            do {
                let more = try decoder.run(window: rest, isFinal: isFinal, force: force)
                used += more
                consumed += more
            } catch {
                throw mapFailure(error)
            }
            if decoder.isComplete { stage = .complete }
        } else if case .lossy(let decoder) = stage {
            let rest = UnsafeRawBufferPointer(rebasing: window[used...])
            do {
                try decoder.run(window: rest, force: force)
            } catch {
                consumed += rest.count
                var mapped = mapFailure(error)
                mapped.offset = payloadOffset + decoder.errorPosition
                throw mapped
            }
            used += rest.count
            consumed += rest.count
            if decoder.isComplete { stage = .complete }
            else if isFinal {
                throw ImageDecodingError(.invalidData, at: payloadOffset + consumed, "VP8 data ends before the last macroblock row")
            }
        }
        return used
    }

    private func mapFailure(_ failure: VP8LFailure) -> ImageDecodingError {
        switch failure {
        case .needMoreData:
            return ImageDecodingError(.invalidData, at: payloadOffset + consumed, "VP8L data ends early")
        case .invalid(let message):
            return ImageDecodingError(.invalidData, at: payloadOffset + consumed, message)
        case .limitExceeded(let message):
            return ImageDecodingError(.limitExceeded, at: payloadOffset + consumed, message)
        }
    }

    /// Reads the VP8L 5-byte header or the VP8 frame header; 0 while more bytes are needed.
    private func readBitstreamHeader(_ window: UnsafeRawBufferPointer, isFinal: Bool) throws(ImageDecodingError) -> Int {
        switch bitstream {
        case .lossless:
            guard try holds(VP8LHeader.byteCount, "VP8L", window, isFinal: isFinal) else { return 0 }
            let header = try parsed(VP8LHeader.parse(window))
            try adopt(width: header.width, height: header.height, hasAlpha: header.alphaIsUsed, format: "VP8L")
            let decoder = VP8LImageDecoder(width: width, height: height, maxTableEntries: Self.maxTableEntries)
            let channels = format.channelCount
            let rowBytes = width * channels
            decoder.rowSink = { [unowned self] y, row in
                self.pixels.withUnsafeMutableBufferPointer { all in
                    VP8LRowWriter.write(row.baseAddress!, count: row.count, channels: channels,
                                        out: all.baseAddress! + y * rowBytes)
                }
                self.completedRows = y + 1
            }
            stage = .lossless(decoder)
            return VP8LHeader.byteCount
        case .lossy(let alphaData):
            guard try holds(VP8FrameTag.byteCount, "VP8", window, isFinal: isFinal) else { return 0 }
            let tag = try parsed(VP8FrameTag.parse(window))
            try adopt(width: tag.width, height: tag.height, hasAlpha: alphaData != nil, format: "VP8")
            var alpha: [UInt8]?
            if let alphaData {
                switch AlphaPlaneDecoder.decode(alphaData, width: width, height: height, maxTableEntries: Self.maxTableEntries) {
                case .success(let plane): alpha = plane
                case .failure(let failure):
                    throw ImageDecodingError(failure.isLimit ? .limitExceeded : .invalidData, at: payloadOffset,
                                             "ALPH data: \(failure.message)")
                }
            }
            let decoder = VP8ImageDecoder(tag: tag, payloadSize: payloadSize)
            let width = self.width
            let channels = format.channelCount
            decoder.rowSink = { [unowned self] y, luma, u, v in
                self.pixels.withUnsafeMutableBufferPointer { all in
                    let out = all.baseAddress! + y * width * channels
                    if let alpha, channels == 4 {
                        alpha.withUnsafeBufferPointer { plane in
                            VP8YUVConverter.convertRow(y: luma, u: u, v: v, width: width, channels: channels,
                                                       alpha: plane.baseAddress! + y * width, out: out)
                        }
                    } else {
                        VP8YUVConverter.convertRow(y: luma, u: u, v: v, width: width, channels: channels, out: out)
                    }
                }
                self.completedRows = y + 1
            }
            stage = .lossy(decoder)
            return VP8FrameTag.byteCount
        }
    }

    /// Whether `window` holds the `count`-byte bitstream header; an error if it never will.
    private func holds(_ count: Int, _ name: String, _ window: UnsafeRawBufferPointer, isFinal: Bool) throws(ImageDecodingError) -> Bool {
        if window.count >= count { return true }
        if isFinal {
            throw ImageDecodingError(.invalidData, at: payloadOffset,
                                     "\(name) chunk of \(payloadSize) bytes is shorter than its \(count)-byte header")
        }
        return false
    }

    /// The parsed header, or its failure as an error.
    private func parsed<Header>(_ result: Result<Header, VP8LFailure>) throws(ImageDecodingError) -> Header {
        switch result {
        case .success(let header): return header
        case .failure(let failure): throw mapFailure(failure)
        }
    }

    /// Checks the bitstream's size against the container and the limits, then allocates the rows.
    private func adopt(width: Int, height: Int, hasAlpha: Bool, format: String) throws(ImageDecodingError) {
        if let requiredSize, requiredSize.width != width || requiredSize.height != height {
            throw ImageDecodingError(.invalidData, at: payloadOffset,
                                     "\(format) image is \(width)×\(height) but the container says \(requiredSize.width)×\(requiredSize.height)")
        }
        do {
            _ = try limits.checkDimensions(width: width, height: height, at: payloadOffset, format: format)
        } catch let error as ImageDecodingError {
            throw error
        } catch {
            throw ImageDecodingError(.internal, at: payloadOffset, "unexpected error \(error)")
        }
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.format = hasAlpha || alwaysAlpha ? .rgba8 : .rgb8
        pixels = [UInt8](repeating: 0, count: width * height * self.format.channelCount)
    }
}
