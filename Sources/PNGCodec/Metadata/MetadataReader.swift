import ColorManagement
import Deflate
import ImageCore

/// Parses the ancillary chunks of PNG 11.3 into ``PNGMetadata``.
///
/// A malformed ancillary chunk (wrong length, bad keyword, damaged compressed text) is skipped
/// with a reason, like libpng's "benign errors": the picture is still right without it. Only the
/// metadata size limit (``Limits/maxMetadataBytes``, the total of kept profile, text and EXIF
/// bytes) is an error, `limitExceeded`.
struct MetadataReader {
    /// What has been parsed so far.
    private(set) var metadata = PNGMetadata()
    /// Metadata bytes kept so far (inflated profile, text, EXIF).
    private(set) var keptBytes = 0
    /// The cap on ``keptBytes``.
    let limit: Int
    let verifyChecksums: Bool

    init(limit: Int, verifyChecksums: Bool) {
        self.limit = limit
        self.verifyChecksums = verifyChecksums
    }

    /// Bytes of metadata that may still be kept.
    var remainingBudget: Int { max(limit - keptBytes, 0) }

    /// Whether this reader understands `type` (everything else ancillary is skipped unread).
    static func handles(_ type: ChunkType) -> Bool {
        [ChunkType.gAMA, .cHRM, .sRGB, .cICP, .iCCP, .sBIT, .bKGD, .pHYs, .tIME, .tEXt, .zTXt, .iTXt, .eXIf].contains(type)
    }

    /// Largest data length worth buffering for `type`; longer chunks of fixed-size types are
    /// malformed and skipped, longer variable ones exceed the metadata limit.
    func maxLength(of type: ChunkType) -> Int {
        switch type {
        case .gAMA: return 4
        case .cHRM: return 32
        case .sRGB: return 1
        case .cICP: return 4
        case .sBIT: return 4
        case .bKGD: return 6
        case .pHYs: return 9
        case .tIME: return 7
        default: return remainingBudget
        }
    }

    /// Parses one chunk's data (CRC already checked). Returns `.ignore(reason)` for a malformed chunk.
    mutating func read(_ type: ChunkType, _ data: UnsafeRawBufferPointer, at offset: Int,
                       colorType: PNGColorType, bitDepth: Int) throws -> ChunkDisposition {
        switch type {
        case .gAMA:
            guard data.count == 4 else { return .ignore("gAMA is \(data.count) bytes, expected 4") }
            metadata.gamma = readUInt32(data, 0)
        case .cHRM:
            guard data.count == 32 else { return .ignore("cHRM is \(data.count) bytes, expected 32") }
            let v = (0..<8).map { readUInt32(data, 4 * $0) }
            metadata.chromaticities = PNGChromaticities(whiteX: v[0], whiteY: v[1], redX: v[2], redY: v[3],
                                                        greenX: v[4], greenY: v[5], blueX: v[6], blueY: v[7])
        case .sRGB:
            guard data.count == 1, let intent = PNGRenderingIntent(rawValue: data[0]) else {
                return .ignore("sRGB must be one byte 0 ... 3")
            }
            metadata.srgbRenderingIntent = intent
        case .cICP:
            guard data.count == 4 else { return .ignore("cICP is \(data.count) bytes, expected 4") }
            metadata.codingIndependentCodePoints = CodingIndependentCodePoints(
                colorPrimaries: data[0], transferCharacteristics: data[1], matrixCoefficients: data[2], isFullRange: data[3] == 1)
        case .sBIT:
            // PNG 11.3.3.4: one value per stored channel, RGB for palette images.
            let expected = colorType == .palette ? 3 : colorType.channels
            guard data.count == expected else { return .ignore("sBIT is \(data.count) bytes, expected \(expected)") }
            metadata.significantBits = Array(data)
        case .bKGD:
            return readBackground(data, colorType: colorType)
        case .pHYs:
            guard data.count == 9, data[8] <= 1 else { return .ignore("pHYs must be 9 bytes with unit 0 or 1") }
            metadata.physicalDimensions = PNGPhysicalDimensions(pixelsPerUnitX: readUInt32(data, 0),
                                                                pixelsPerUnitY: readUInt32(data, 4), unitIsMeter: data[8] == 1)
        case .tIME:
            guard data.count == 7 else { return .ignore("tIME is \(data.count) bytes, expected 7") }
            metadata.lastModified = PNGTimestamp(year: Int(readUInt16(data, 0)), month: Int(data[2]), day: Int(data[3]),
                                                 hour: Int(data[4]), minute: Int(data[5]), second: Int(data[6]))
        case .iCCP:
            return try readICCProfile(data, at: offset)
        case .tEXt, .zTXt, .iTXt:
            return try readText(type, data, at: offset)
        case .eXIf:
            try keep(data.count, type, at: offset)
            metadata.exif = Array(data)
            metadata.orientation = Orientation(exifTIFF: data) ?? .up
        default:
            return .ignore("\(type) is not a metadata chunk")
        }
        return .process
    }

    private mutating func readBackground(_ data: UnsafeRawBufferPointer, colorType: PNGColorType) -> ChunkDisposition {
        switch colorType {
        case .palette where data.count == 1: metadata.background = .paletteIndex(data[0])
        case .gray where data.count == 2, .grayAlpha where data.count == 2: metadata.background = .gray(readUInt16(data, 0))
        case .rgb where data.count == 6, .rgba where data.count == 6:
            metadata.background = .rgb(readUInt16(data, 0), readUInt16(data, 2), readUInt16(data, 4))
        default: return .ignore("bKGD has \(data.count) bytes, wrong for a \(colorType.name) image")
        }
        return .process
    }

    private mutating func readICCProfile(_ data: UnsafeRawBufferPointer, at offset: Int) throws -> ChunkDisposition {
        guard let (name, rest) = Self.keyword(data) else { return .ignore("iCCP has no valid profile name") }
        guard rest < data.count, data[rest] == 0 else { return .ignore("iCCP compression method is not 0") }
        let compressed = UnsafeRawBufferPointer(rebasing: data[(rest + 1)...])
        let profile: [UInt8]
        do {
            profile = try CompressedText.inflate(compressed, limit: remainingBudget, verifyChecksums: verifyChecksums,
                                                 at: offset, chunk: .iCCP)
        } catch let error as InflateError {
            return .ignore("iCCP profile data is damaged: \(error.message)")
        }
        try keep(profile.count, .iCCP, at: offset)
        metadata.iccProfileName = name
        metadata.iccProfile = profile
        return .process
    }

    private mutating func readText(_ type: ChunkType, _ data: UnsafeRawBufferPointer, at offset: Int) throws -> ChunkDisposition {
        guard let (keyword, rest) = Self.keyword(data) else { return .ignore("\(type) keyword is not 1 ... 79 Latin-1 characters") }
        let body = UnsafeRawBufferPointer(rebasing: data[rest...])
        let entry: PNGTextEntry
        switch type {
        case .tEXt:
            entry = PNGTextEntry(kind: .tEXt, keyword: keyword, text: Self.latin1(body))
        case .zTXt:
            guard body.count >= 1, body[0] == 0 else { return .ignore("zTXt compression method is not 0") }
            guard let text = try inflateText(UnsafeRawBufferPointer(rebasing: body[1...]), type, at: offset) else {
                return .ignore("zTXt compressed text is damaged")
            }
            entry = PNGTextEntry(kind: .zTXt, keyword: keyword, text: Self.latin1(text))
        default:
            guard let parsed = try readInternationalText(keyword, body, at: offset) else {
                return .ignore("iTXt is malformed")
            }
            entry = parsed
        }
        try keep(keyword.utf8.count + entry.text.utf8.count, type, at: offset)
        metadata.textEntries.append(entry)
        return .process
    }

    /// iTXt after the keyword (PNG 11.3.4.5): compression flag, method, language tag NUL,
    /// translated keyword NUL, UTF-8 text.
    private func readInternationalText(_ keyword: String, _ body: UnsafeRawBufferPointer, at offset: Int) throws -> PNGTextEntry? {
        guard body.count >= 2, body[0] <= 1, body[1] == 0 else { return nil }
        let compressed = body[0] == 1
        guard let languageEnd = body[2...].firstIndex(of: 0),
              let translatedEnd = body[(languageEnd + 1)...].firstIndex(of: 0) else { return nil }
        let language = Self.latin1(UnsafeRawBufferPointer(rebasing: body[2..<languageEnd]))
        let translated = String(decoding: UnsafeRawBufferPointer(rebasing: body[(languageEnd + 1)..<translatedEnd]), as: UTF8.self)
        let textBytes = UnsafeRawBufferPointer(rebasing: body[(translatedEnd + 1)...])
        let text: String
        if compressed {
            guard let inflated = try inflateText(textBytes, .iTXt, at: offset) else { return nil }
            text = String(decoding: inflated, as: UTF8.self)
        } else {
            text = String(decoding: textBytes, as: UTF8.self)
        }
        return PNGTextEntry(kind: .iTXt, keyword: keyword, text: text, languageTag: language, translatedKeyword: translated)
    }

    /// Inflates compressed text; nil if the data is damaged.
    private func inflateText(_ data: UnsafeRawBufferPointer, _ type: ChunkType, at offset: Int) throws -> [UInt8]? {
        do {
            return try CompressedText.inflate(data, limit: remainingBudget, verifyChecksums: verifyChecksums,
                                              at: offset, chunk: type)
        } catch is InflateError {
            return nil
        }
    }

    /// Counts `count` more kept bytes against the limit.
    private mutating func keep(_ count: Int, _ type: ChunkType, at offset: Int) throws {
        guard count <= remainingBudget else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "PNG \(type) needs \(count) bytes of metadata, more than the \(remainingBudget) still allowed (limit \(limit))")
        }
        keptBytes += count
    }

    /// PNG 11.3.4.2: a keyword is 1 ... 79 printable Latin-1 bytes then a NUL.
    /// Returns the keyword and the index after the NUL.
    static func keyword(_ data: UnsafeRawBufferPointer) -> (String, Int)? {
        guard let end = data.firstIndex(of: 0), end >= 1, end <= 79 else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: data[..<end])
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 >= 0xA1 }) else { return nil }
        return (latin1(bytes), end + 1)
    }

    /// Latin-1 bytes as a string (each byte is the Unicode scalar of the same number).
    static func latin1<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
