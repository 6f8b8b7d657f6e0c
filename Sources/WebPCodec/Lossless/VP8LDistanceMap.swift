/// Maps VP8L distance codes to pixel distances (RFC 9649 section 5.2.2, "Distance Mapping").
///
/// Codes 1–120 name a nearby pixel as an (x, y) offset, in the order of the spec's table;
/// larger codes are a plain distance `code - 120`.
enum VP8LDistanceMap {
    /// The spec's 120 (xi, yi) pairs, flattened: `offsets[2 * (code - 1)]` is xi, `+ 1` is yi.
    static let offsets: [Int8] = [
        0, 1, 1, 0, 1, 1, -1, 1, 0, 2, 2, 0, 1, 2,
        -1, 2, 2, 1, -2, 1, 2, 2, -2, 2, 0, 3, 3, 0,
        1, 3, -1, 3, 3, 1, -3, 1, 2, 3, -2, 3, 3, 2,
        -3, 2, 0, 4, 4, 0, 1, 4, -1, 4, 4, 1, -4, 1,
        3, 3, -3, 3, 2, 4, -2, 4, 4, 2, -4, 2, 0, 5,
        3, 4, -3, 4, 4, 3, -4, 3, 5, 0, 1, 5, -1, 5,
        5, 1, -5, 1, 2, 5, -2, 5, 5, 2, -5, 2, 4, 4,
        -4, 4, 3, 5, -3, 5, 5, 3, -5, 3, 0, 6, 6, 0,
        1, 6, -1, 6, 6, 1, -6, 1, 2, 6, -2, 6, 6, 2,
        -6, 2, 4, 5, -4, 5, 5, 4, -5, 4, 3, 6, -3, 6,
        6, 3, -6, 3, 0, 7, 7, 0, 1, 7, -1, 7, 5, 5,
        -5, 5, 7, 1, -7, 1, 4, 6, -4, 6, 6, 4, -6, 4,
        2, 7, -2, 7, 7, 2, -7, 2, 3, 7, -3, 7, 7, 3,
        -7, 3, 5, 6, -5, 6, 6, 5, -6, 5, 8, 0, 4, 7,
        -4, 7, 7, 4, -7, 4, 8, 1, 8, 2, 6, 6, -6, 6,
        8, 3, 5, 7, -5, 7, 7, 5, -7, 5, 8, 4, 6, 7,
        -6, 7, 7, 6, -7, 6, 8, 5, 7, 7, -7, 7, 8, 6,
        8, 7,
    ]

    /// Codes up to this value use the offset table.
    static let tableCodes = 120

    /// The distance in pixels for distance code `code` (>= 1) in an image `width` pixels wide;
    /// at least 1, as the spec requires.
    @inline(__always)
    static func distance(code: Int, width: Int) -> Int {
        if code > tableCodes { return code - tableCodes }
        let xi = Int(offsets[2 * (code - 1)])
        let yi = Int(offsets[2 * (code - 1) + 1])
        return max(yi * width + xi, 1)
    }
}
