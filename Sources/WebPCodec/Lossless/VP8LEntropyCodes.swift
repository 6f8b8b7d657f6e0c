/// The prefix codes of one entropy-coded image (RFC 9649 sections 3.7.2.2 and 6.2.2): one or
/// more groups of five codes (green + length + cache, red, blue, alpha, distance), and for the
/// main image an optional entropy image choosing the group of each block of pixels.
struct VP8LEntropyCodes {
    /// Codes of every group, five per group: `codes[group * 5 + k]`, k in green, red, blue, alpha, distance order.
    var codes: [VP8LPrefixCode]
    /// Table entries of all codes (see ``VP8LPrefixCode``).
    var entries: [UInt32]
    /// Block size exponent of the entropy image, or 0 when every pixel uses group 0.
    var groupBits: Int
    /// Entropy image blocks per row.
    var groupsPerRow: Int
    /// Group index of each block (already mapped to the groups kept in ``codes``).
    var groupOfBlock: [UInt32]
    /// Colour cache size exponent (1–11), or 0 without a cache.
    var cacheBits: Int

    /// The group used at pixel (x, y).
    @inline(__always)
    func group(x: Int, y: Int) -> Int {
        guard groupBits > 0 else { return 0 }
        return Int(groupOfBlock[(y >> groupBits) * groupsPerRow + (x >> groupBits)])
    }
}
