/// The 10 bytes that start a VP8 key frame (RFC 6386 sections 9.1 and 19.1): a 3-byte frame tag
/// (key frame flag, version, show flag, 19-bit first partition size), the start code
/// `9D 01 2A`, then 14-bit width and height, each with 2 scaling bits that libwebp ignores.
struct VP8FrameTag: Equatable {
    static let byteCount = 10

    let firstPartitionSize: Int
    let width: Int
    let height: Int

    /// Parses the tag; the message says what is wrong (libwebp's `VP8GetInfo` checks).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<VP8FrameTag, VP8LFailure> {
        let bits = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
        guard bits & 1 == 0 else { return .failure(.invalid("VP8 frame is not a key frame")) }
        guard bits >> 1 & 7 <= 3 else { return .failure(.invalid("VP8 profile \(bits >> 1 & 7) is not 0–3")) }
        guard bits >> 4 & 1 == 1 else { return .failure(.invalid("VP8 frame is marked invisible")) }
        guard bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
            return .failure(.invalid("VP8 start code is not 9D 01 2A"))
        }
        let width = (Int(bytes[6]) | Int(bytes[7]) << 8) & 0x3FFF
        let height = (Int(bytes[8]) | Int(bytes[9]) << 8) & 0x3FFF
        guard width > 0, height > 0 else { return .failure(.invalid("VP8 frame size \(width)×\(height) is empty")) }
        return .success(VP8FrameTag(firstPartitionSize: bits >> 5, width: width, height: height))
    }
}
