import ImageCore

/// A parsed acTL chunk (APNG spec, "acTL: The Animation Control Chunk"): 8 bytes,
/// `num_frames` then `num_plays`, both big-endian 32-bit.
struct AnimationControl: Equatable {
    /// Frames the file declares: the number of fcTL chunks it must hold (1 ... 2^31 - 1).
    let frameCount: Int
    /// Times to play the animation; 0 means forever.
    let playCount: Int

    /// acTL data is exactly 8 bytes.
    static let length = 8

    /// Parses acTL data, or says why the chunk is to be ignored (the file is then shown as a
    /// still image, as libpng and Pillow do): a wrong length, or `num_frames` 0 or above 2^31 - 1
    /// ("0 is not a valid value", and PNG integers are 31-bit).
    static func parse(_ data: UnsafeRawBufferPointer) -> Parsed {
        guard data.count == length else { return .ignored("acTL is \(data.count) bytes long, expected \(length)") }
        let frames = Int(readUInt32(data, 0))
        guard frames >= 1, frames <= ChunkHeader.maxLength else {
            return .ignored("acTL declares \(frames) frames; 1 ... 2^31-1 are allowed")
        }
        return .valid(AnimationControl(frameCount: frames, playCount: Int(readUInt32(data, 4))))
    }

    /// What an acTL chunk amounts to.
    enum Parsed {
        /// The file is animated.
        case valid(AnimationControl)
        /// The chunk is ignored, for the reason given.
        case ignored(String)
    }
}
