/// The 5-byte header of a VP8L bitstream (RFC 9649 section 3.1, 3.2): signature 0x2F, then
/// 14 bits width - 1, 14 bits height - 1, 1 bit alpha_is_used, 3 bits version (must be 0),
/// least significant bit first.
struct VP8LHeader: Equatable {
    static let byteCount = 5
    static let signature: UInt8 = 0x2F

    let width: Int
    let height: Int
    /// The encoder's hint that some alpha is not 255 (libwebp reports it as `has_alpha`).
    let alphaIsUsed: Bool

    /// Parses the header; the error names what was wrong.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<VP8LHeader, VP8LFailure> {
        guard bytes[0] == signature else {
            return .failure(.invalid("VP8L signature byte is 0x\(String(bytes[0], radix: 16)), expected 0x2f"))
        }
        let bits = littleEndian32(bytes, 1)
        let version = bits >> 29
        guard version == 0 else { return .failure(.invalid("VP8L version is \(version), expected 0")) }
        return .success(VP8LHeader(width: Int(bits & 0x3FFF) + 1, height: Int(bits >> 14 & 0x3FFF) + 1,
                                   alphaIsUsed: bits >> 28 & 1 == 1))
    }
}
