import Foundation

/// The file format of one disk-cache entry: a fixed header that makes torn or damaged files
/// detectable, a few metadata lines, then the payload (the encoded image bytes).
///
/// ```
/// offset size  field
///  0      4    magic "IIC1"
///  4      1    kind: 0 complete image, 1 partial download
///  5      3    zero
///  8      4    metadata length M (little-endian)
/// 12      4    zero
/// 16      8    payload length P (little-endian)
/// 24      8    FNV-1a 64 of bytes 0..<24 and of the M + P bytes that follow (little-endian)
/// 32      M    metadata: UTF-8 lines "name=value\n"
/// 32+M    P    payload
/// ```
/// A file is accepted only if its size is exactly 32 + M + P and the checksum matches.
struct DiskCacheRecord: Equatable {
    /// What the payload is.
    enum Kind: UInt8 {
        /// A whole encoded image.
        case complete = 0
        /// The first bytes of a download that broke off, kept to resume it with a Range request.
        case partial = 1
    }

    static let magic: [UInt8] = Array("IIC1".utf8)
    static let headerSize = 32

    var kind: Kind
    /// Name → value; names and values never contain a newline (values are cleaned on encoding).
    var metadata: [String: String]
    var payload: Data

    /// The file bytes.
    func encoded() -> Data {
        let metadataBytes = Data(metadata.keys.sorted().map { name in
            let value = metadata[name, default: ""].filter { $0 != "\n" && $0 != "\r" }
            return "\(name)=\(value)\n"
        }.joined().utf8)
        var out = Data(capacity: Self.headerSize + metadataBytes.count + payload.count)
        out.append(contentsOf: Self.magic)
        out.append(contentsOf: [kind.rawValue, 0, 0, 0])
        Self.appendLittleEndian(UInt64(metadataBytes.count), bytes: 4, to: &out)
        out.append(contentsOf: [0, 0, 0, 0])
        Self.appendLittleEndian(UInt64(payload.count), bytes: 8, to: &out)
        var hasher = FNV1a64()
        out.withUnsafeBytes { hasher.update($0) }
        metadataBytes.withUnsafeBytes { hasher.update($0) }
        payload.withUnsafeBytes { hasher.update($0) }
        Self.appendLittleEndian(hasher.value, bytes: 8, to: &out)
        out.append(metadataBytes)
        out.append(payload)
        return out
    }

    /// Parses file bytes; nil if the header, the lengths or the checksum do not hold.
    init?(decoding file: Data) {
        let bytes = [UInt8](file.prefix(Self.headerSize))
        guard bytes.count == Self.headerSize, Array(bytes[0..<4]) == Self.magic,
              let kind = Kind(rawValue: bytes[4]) else { return nil }
        let metadataLength = Self.readLittleEndian(bytes, at: 8, count: 4)
        let payloadLength = Self.readLittleEndian(bytes, at: 16, count: 8)
        let checksum = Self.readLittleEndian(bytes, at: 24, count: 8)
        // Compare without adding, so absurd lengths in a damaged header cannot overflow.
        let available = UInt64(file.count - Self.headerSize)
        guard metadataLength <= available, payloadLength == available - metadataLength else { return nil }
        let body = file.dropFirst(Self.headerSize)
        var hasher = FNV1a64()
        bytes[0..<24].withUnsafeBytes { hasher.update($0) }
        body.withUnsafeBytes { hasher.update($0) }
        guard hasher.value == checksum else { return nil }
        let metadataEnd = body.startIndex + Int(metadataLength)
        guard let text = String(data: body[body.startIndex..<metadataEnd], encoding: .utf8) else { return nil }
        var metadata: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { return nil }
            metadata[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        self.kind = kind
        self.metadata = metadata
        self.payload = Data(body[metadataEnd...])
    }

    init(kind: Kind, metadata: [String: String], payload: Data) {
        self.kind = kind
        self.metadata = metadata
        self.payload = payload
    }

    private static func appendLittleEndian(_ value: UInt64, bytes: Int, to out: inout Data) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
