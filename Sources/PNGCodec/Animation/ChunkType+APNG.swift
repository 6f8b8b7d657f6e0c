extension ChunkType {
    /// Animation control (APNG): frame count and play count; marks a file as animated.
    static let acTL = ChunkType("acTL")
    /// Frame control (APNG): one frame's region, delay, disposal and blending.
    static let fcTL = ChunkType("fcTL")
    /// Frame data (APNG): a sequence number, then the frame's zlib data, as IDAT carries the default image's.
    static let fdAT = ChunkType("fdAT")
}
