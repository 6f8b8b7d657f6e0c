/// JPEG marker codes: the byte that follows 0xFF (T.81 Table B.1).
enum JPEGMarker {
    /// Start of image.
    static let soi: UInt8 = 0xD8
    /// End of image.
    static let eoi: UInt8 = 0xD9
    /// Start of scan.
    static let sos: UInt8 = 0xDA
    /// Define quantization tables.
    static let dqt: UInt8 = 0xDB
    /// Define number of lines (height given after the first scan).
    static let dnl: UInt8 = 0xDC
    /// Define restart interval.
    static let dri: UInt8 = 0xDD
    /// Define Huffman tables.
    static let dht: UInt8 = 0xC4
    /// Define arithmetic coding conditioning.
    static let dac: UInt8 = 0xCC
    /// Comment.
    static let com: UInt8 = 0xFE
    /// Temporary private use marker (no length field).
    static let tem: UInt8 = 0x01
    /// First restart marker; RST0...RST7 are 0xD0...0xD7.
    static let rst0: UInt8 = 0xD0
    /// APP0; APP0...APP15 are 0xE0...0xEF.
    static let app0: UInt8 = 0xE0

    /// Whether `code` is RST0...RST7.
    @inline(__always)
    static func isRestart(_ code: UInt8) -> Bool { code >= 0xD0 && code <= 0xD7 }

    /// Whether `code` is a start-of-frame marker (SOF0...SOF15 except DHT, JPG and DAC).
    static func isStartOfFrame(_ code: UInt8) -> Bool {
        code >= 0xC0 && code <= 0xCF && code != dht && code != 0xC8 && code != dac
    }

    /// Whether the marker stands alone, without a length field (T.81 B.1.1.3: SOI, EOI, RSTn, TEM).
    static func isStandalone(_ code: UInt8) -> Bool {
        code == soi || code == eoi || code == tem || isRestart(code)
    }

    /// A readable name, e.g. "SOF2" or "APP1", for messages.
    static func name(_ code: UInt8) -> String {
        switch code {
        case soi: return "SOI"
        case eoi: return "EOI"
        case sos: return "SOS"
        case dqt: return "DQT"
        case dnl: return "DNL"
        case dri: return "DRI"
        case dht: return "DHT"
        case dac: return "DAC"
        case com: return "COM"
        case tem: return "TEM"
        case 0xC8: return "JPG"
        case 0xC0...0xCF: return "SOF\(code - 0xC0)"
        case 0xD0...0xD7: return "RST\(code - 0xD0)"
        case 0xE0...0xEF: return "APP\(code - 0xE0)"
        case 0xF0...0xFD: return "JPG\(code - 0xF0)"
        default: return "0xFF" + hex(code)
        }
    }

    /// Two lower-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
