import ImageCore

/// One image component as declared in the frame header (T.81 B.2.2).
struct FrameComponent: Sendable, Hashable {
    /// Component identifier Ci, referenced by scan headers.
    var id: UInt8
    /// Horizontal sampling factor Hi, 1...4.
    var horizontalSampling: Int
    /// Vertical sampling factor Vi, 1...4.
    var verticalSampling: Int
    /// Quantization table selector Tqi, 0...3.
    var quantizationTable: Int
}

/// The SOFn segment: size, precision and components of the image (T.81 B.2.2).
struct FrameHeader: Sendable, Hashable {
    /// The SOF marker code (0xC0 baseline, 0xC1 extended sequential, 0xC2 progressive; 0xC9 and
    /// 0xCA the same with arithmetic coding).
    var marker: UInt8
    /// Sample precision P in bits.
    var precision: Int
    /// Number of lines Y.
    var height: Int
    /// Samples per line X.
    var width: Int
    /// The components, in frame order.
    var components: [FrameComponent]

    /// Whether the frame is progressive (SOF2, SOF10).
    var isProgressive: Bool { marker == 0xC2 || marker == 0xCA }

    /// Whether the scans are arithmetic-coded (SOF9, SOF10) rather than Huffman-coded.
    var isArithmetic: Bool { marker == 0xC9 || marker == 0xCA }

    /// Whether the frame is lossless (SOF3).
    var isLossless: Bool { marker == 0xC3 }

    /// Largest horizontal sampling factor Hmax.
    var maxHorizontalSampling: Int { components.map(\.horizontalSampling).max() ?? 1 }
    /// Largest vertical sampling factor Vmax.
    var maxVerticalSampling: Int { components.map(\.verticalSampling).max() ?? 1 }

    /// Rejects frame types this decoder does not decode, with a message saying what the file uses.
    static func checkSupported(marker: UInt8, at offset: Int) throws {
        switch marker {
        case 0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA:
            return
        case 0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF:
            throw ImageDecodingError(.unsupported, at: offset,
                                     "hierarchical JPEG (\(JPEGMarker.name(marker))) is not supported")
        default:
            throw ImageDecodingError(.unsupported, at: offset,
                                     "lossless arithmetic-coded JPEG (\(JPEGMarker.name(marker))) is not supported")
        }
    }

    /// Parses the payload of a SOF0/SOF1/SOF2/SOF3 segment.
    static func parse(_ reader: inout SegmentReader, marker: UInt8) throws -> FrameHeader {
        let precisionOffset = reader.offset
        let precision = Int(try reader.u8())
        let heightOffset = reader.offset
        let height = try reader.u16()
        let width = try reader.u16()
        let count = Int(try reader.u8())
        if marker == 0xC3 {
            guard (2...16).contains(precision) else {
                throw ImageDecodingError(.invalidData, at: precisionOffset,
                                         "\(reader.name) declares sample precision \(precision); lossless JPEG uses 2...16")
            }
        } else if precision != 8 && precision != 12 {
            throw ImageDecodingError(.invalidData, at: precisionOffset,
                                     "\(reader.name) declares sample precision \(precision); DCT-based JPEG uses 8 or 12")
        } else if precision == 12 && (marker == 0xC9 || marker == 0xCA) {
            // The 12-bit path stores raw coefficients for its own renderer; the arithmetic decoder
            // does not feed it yet.
            throw ImageDecodingError(.unsupported, at: precisionOffset,
                                     "12-bit arithmetic-coded JPEG (\(JPEGMarker.name(marker))) is not supported")
        }
        if height == 0 {
            throw ImageDecodingError(.unsupported, at: heightOffset,
                                     "\(reader.name) declares height 0 (height given later by a DNL marker), which is not supported")
        }
        guard width > 0 else { throw ImageDecodingError(.invalidData, at: heightOffset + 2, "\(reader.name) declares width 0") }
        guard count > 0 else { throw reader.invalid("declares 0 components") }
        guard reader.remaining == 3 * count else {
            throw reader.invalid("length does not match \(count) components (\(3 * count) bytes expected, \(reader.remaining) present)")
        }
        var components: [FrameComponent] = []
        for _ in 0..<count {
            let id = try reader.u8()
            let sampling = try reader.u8()
            let table = try reader.u8()
            let h = Int(sampling >> 4), v = Int(sampling & 15)
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw reader.invalid("component \(id) has sampling factors \(h)x\(v); each must be 1...4")
            }
            guard table < 4 else { throw reader.invalid("component \(id) selects quantization table \(table); only 0...3 exist") }
            components.append(FrameComponent(id: id, horizontalSampling: h, verticalSampling: v, quantizationTable: Int(table)))
        }
        if (precision != 8 || marker == 0xC3) && count == 4 {
            throw ImageDecodingError(.unsupported, at: precisionOffset + 5,
                                     "\(marker == 0xC3 ? "lossless" : "\(precision)-bit") JPEG with 4 components (CMYK/YCCK) is not supported")
        }
        guard count == 1 || count == 3 || count == 4 else {
            throw ImageDecodingError(.unsupported, at: precisionOffset + 5,
                                     "JPEG with \(count) components is not supported (1, 3 or 4 are)")
        }
        return FrameHeader(marker: marker, precision: precision, height: height, width: width, components: components)
    }
}
