/// One-read decoding of lossless sample differences: indexed by the next `indexBits` bits of
/// the stream, an entry holds the difference and the bits it takes (code and extra bits) when
/// both fit in those bits; 0 sends the decoder to the two-step path (``HuffmanLookup``).
///
/// Example: code `010` (length 3) for size 2 followed by bits `01`: every index starting with
/// 01001 holds difference −2 (EXTEND of 01) and 5 bits, as `-2 << 8 | 5`.
final class LosslessDifferenceTable {
    /// Bits looked up at once for a scan of `components` components. One table of 14 bits (64 KiB)
    /// covers a short code with the extra bits of most differences, even in noisy 16-bit images (12
    /// bits left a third of them to the code-then-bits path). Three such tables thrash the level-1
    /// cache (a miss per sample in callgrind's cache simulation of a 12-bit RGB photo); at 10 bits
    /// (4 KiB each) misses fall to a third for 3 % more instructions.
    static func indexBits(components: Int) -> Int { components == 1 ? 14 : 10 }

    /// The bits this table is indexed by.
    let indexBits: Int
    /// 2^indexBits entries: difference << 8 | bits taken, or 0.
    let entries: UnsafeMutablePointer<Int32>

    /// Builds the table for the lossless DC table `lookup`, indexed by `indexBits` (1...16) bits.
    init(_ lookup: HuffmanLookup, indexBits: Int) {
        self.indexBits = indexBits
        let count = 1 << indexBits
        entries = .allocate(capacity: count)
        for index in 0..<count {
            let bits = UInt64(index) << UInt64(64 - indexBits)
            let (size, length) = BitReader.symbol(atTopOf: bits, lookup)
            var entry: Int32 = 0
            if size >= 0 && length <= indexBits {
                if size == 0 {
                    entry = Int32(length)
                } else if size == 16 {
                    entry = 32768 << 8 | Int32(length)
                } else if length + size <= indexBits {
                    let raw = Int32(truncatingIfNeeded: (index >> (indexBits - length - size)) & ((1 << size) - 1))
                    entry = BitReader.extend(raw, size: size) << 8 | Int32(length + size)
                }
            }
            (entries + index).initialize(to: entry)
        }
    }

    deinit { entries.deallocate() }
}
