/// The LZ77 output of one block waiting to be Huffman-coded, with its symbol frequencies.
///
/// Token layout (32 bits): a literal is the byte value (bit 31 clear); a match is
/// `1 << 31 | length << 16 | (distance − 1)`, length 3...258 in bits 16–24 and distance − 1
/// (0...32767) in bits 0–14. Example: length 10 at distance 1 is `0x800A_0000`.
final class DeflaterTokenBuffer {
    /// Tokens per block: enough to spread the dynamic-header cost (about 60–100 bytes), few
    /// enough that the code follows changes in the data (zlib uses 16 Ki symbols too).
    static let defaultCapacity = 16384
    /// Level 1's blocks: 4× fewer Huffman codes to build, which matters at its speed.
    static let fastCapacity = 65536

    /// Tokens per block.
    let capacity: Int
    /// Bit 31 marks a match token.
    static let matchFlag: UInt32 = 0x8000_0000

    /// `count` valid tokens.
    let tokens: UnsafeMutablePointer<UInt32>
    private(set) var count = 0
    /// Literal/length symbol frequencies of the tokens (end-of-block not included).
    let literalLengthFrequencies: UnsafeMutablePointer<Int>
    /// Distance symbol frequencies of the tokens.
    let distanceFrequencies: UnsafeMutablePointer<Int>

    init(capacity: Int = DeflaterTokenBuffer.defaultCapacity) {
        self.capacity = capacity
        tokens = .allocate(capacity: capacity)
        literalLengthFrequencies = .allocate(capacity: DeflaterSymbols.literalLengthCount)
        distanceFrequencies = .allocate(capacity: DeflaterSymbols.distanceCount)
        reset()
    }

    deinit {
        tokens.deallocate()
        literalLengthFrequencies.deallocate()
        distanceFrequencies.deallocate()
    }

    /// Whether no more tokens fit.
    var isFull: Bool { count == capacity }

    /// Empties the buffer for the next block.
    func reset() {
        count = 0
        literalLengthFrequencies.initialize(repeating: 0, count: DeflaterSymbols.literalLengthCount)
        distanceFrequencies.initialize(repeating: 0, count: DeflaterSymbols.distanceCount)
    }

    /// Appends a literal byte. The buffer must not be full.
    @inline(__always)
    func appendLiteral(_ byte: UInt8) {
        tokens[count] = UInt32(byte)
        count &+= 1
        literalLengthFrequencies[Int(byte)] &+= 1
    }

    /// Appends a match (length 3...258, distance 1...32768). The buffer must not be full.
    @inline(__always)
    func appendMatch(length: Int, distance: Int) {
        tokens[count] = DeflaterTokenBuffer.matchFlag | UInt32(truncatingIfNeeded: length) << 16
            | UInt32(truncatingIfNeeded: distance &- 1)
        count &+= 1
        literalLengthFrequencies[DeflaterSymbols.lengthSymbol(length).symbol] &+= 1
        distanceFrequencies[DeflaterSymbols.distanceSymbol(distance).symbol] &+= 1
    }
}
