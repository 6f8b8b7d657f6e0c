/// The zig-zag scan order of T.81 Figure A.6 as natural (row-major) indices.
enum ZigZag {
    /// `order[k]` = natural index of the k-th coefficient in zig-zag order, for k = 0...63,
    /// followed by 16 extra entries of 63: a corrupt run can push k up to 63 + 15, and like libjpeg
    /// the decoder then writes to the last coefficient instead of outside the block.
    static let order: [UInt8] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
        63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    ]

    /// The natural index of zig-zag position `k` (0...63).
    static func naturalIndex(_ k: Int) -> Int { Int(order[k]) }

    /// `order` in memory that lives as long as the program, for hot loops.
    nonisolated(unsafe) static let pointer: UnsafePointer<UInt8> = {
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: order.count)
        storage.initialize(from: order, count: order.count)
        return UnsafePointer(storage)
    }()
}
