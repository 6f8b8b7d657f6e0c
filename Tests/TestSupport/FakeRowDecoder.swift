import ImageCore

/// A decoder for "TST1", a trivial test-only format whose rows arrive one after the other, so
/// loader tests (previews, caches, coalescing, resume) run without the real codecs.
///
/// Layout: `"TST1"` · width (UInt16 big-endian) · height (UInt16 big-endian) · `height` rows of
/// `width` gray8 samples. Example: a 2×1 image is `54 53 54 31 00 02 00 01 A0 B0` (10 bytes).
/// Honours ``DecodingOptions/scale`` by keeping every `scale`-th row and column, like a JPEG DCT
/// scale would (output size `ceil(size / scale)`), so the loader's thumbnail path is testable.
/// The header claims `fileFormat: .png` only because ``ImageFileFormat`` has no test case.
public final class FakeRowDecoder: IncrementalImageDecoder {
    /// `"TST1"`.
    public static let signature: [UInt8] = Array("TST1".utf8)
    /// Signature (4) + width (2) + height (2).
    public static let headerSize = 8

    private let options: DecodingOptions
    /// Bytes before the pixels, collected until all 8 have arrived.
    private var headerBytes: [UInt8] = []
    /// Full-size samples received so far, row-major; `received` of them are valid.
    private var samples: [UInt8] = []
    private var received = 0
    private var error: ImageDecodingError?
    public private(set) var header: ImageHeader?
    public private(set) var inputBytesExamined = 0
    private var fullWidth = 0, fullHeight = 0

    /// Makes a decoder.
    public init(options: DecodingOptions = DecodingOptions()) { self.options = options }

    /// Appends bytes; rows become final as soon as they are complete.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let error { throw error }
        var index = 0
        while index < bytes.count, header == nil {
            headerBytes.append(bytes[index])
            index += 1
            inputBytesExamined += 1
            if headerBytes.count == Self.headerSize { try parseHeader() }
        }
        if header != nil {
            let take = min(bytes.count - index, samples.count - received)
            for offset in 0..<take { samples[received + offset] = bytes[index + offset] }
            received += take
            inputBytesExamined += take
        }
        return status
    }

    private func parseHeader() throws {
        guard Array(headerBytes[0..<4]) == Self.signature else {
            throw fail(ImageDecodingError(.invalidSignature, at: 0, "TST1 signature missing"))
        }
        fullWidth = Int(headerBytes[4]) << 8 | Int(headerBytes[5])
        fullHeight = Int(headerBytes[6]) << 8 | Int(headerBytes[7])
        do {
            _ = try options.limits.checkDimensions(width: fullWidth, height: fullHeight, at: 4, format: "TST1")
        } catch let failure as ImageDecodingError {
            throw fail(failure)
        }
        samples = [UInt8](repeating: 0, count: fullWidth * fullHeight)
        header = ImageHeader(fileFormat: .png, width: options.scale.scaled(fullWidth),
                             height: options.scale.scaled(fullHeight), pixelFormat: .gray8, bitDepth: 8, isProgressive: false)
    }

    private func fail(_ failure: ImageDecodingError) -> ImageDecodingError {
        error = failure
        return failure
    }

    /// Output rows whose source row has fully arrived.
    private var completedOutputRows: Int {
        guard fullWidth > 0 else { return 0 }
        let fullRows = received / fullWidth
        return options.scale.scaled(fullRows)
    }

    /// `awaitingHeader`, `decoding` with one preview generation per completed output row, or `complete`.
    public var status: DecodingStatus {
        guard let header else { return .awaitingHeader }
        let rows = completedOutputRows
        let progress = DecodingProgress(completedRows: rows, completedScans: rows == header.height ? 1 : 0,
                                        previewGeneration: rows)
        return rows == header.height ? .complete(progress) : .decoding(progress)
    }

    /// The rows received so far; later rows are zero.
    public func currentImage() -> Image? {
        guard let header else { return nil }
        let step = options.scale.denominator
        var pixels = [UInt8](repeating: 0, count: header.width * header.height)
        for y in 0..<completedOutputRows {
            for x in 0..<header.width { pixels[y * header.width + x] = samples[(y * step) * fullWidth + x * step] }
        }
        return Image(width: header.width, height: header.height, format: .gray8, pixels: pixels)
    }

    /// The final image, or `truncated` naming how many sample bytes are missing.
    public func finish() throws -> Image {
        if let error { throw error }
        guard header != nil else {
            throw fail(ImageDecodingError(.truncated, at: headerBytes.count, "TST1 header incomplete"))
        }
        guard received == samples.count, let image = currentImage() else {
            throw fail(ImageDecodingError(.truncated, at: Self.headerSize + received,
                                          "TST1 pixel data ends after \(received) of \(samples.count) bytes"))
        }
        return image
    }
}
