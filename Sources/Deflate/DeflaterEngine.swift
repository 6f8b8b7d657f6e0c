/// The LZ77 and block-coding stage of a ``Deflater`` or ``StreamingDeflater``: tokenises a
/// buffer (after optional history it may refer back to) and writes the tokens as blocks.
final class DeflaterEngine {
    private let level: Int
    private let tokens: DeflaterTokenBuffer
    private let finder: Finder
    /// Where in the current buffer the block left open by the last ``compress(_:from:isFinal:to:)``
    /// starts (its tokens wait in `tokens`); nil when every block is written. Negative once the
    /// caller has dropped the block's first bytes: it can then no longer fall back to stored.
    private(set) var openBlockStart: Int?
    /// Longest open block whose bytes a caller keeps for the stored-block fallback: 256 KiB. A
    /// longer one averages more than 4 bytes per token (blocks hold at most 64 Ki tokens), so
    /// storing it would never be the smallest choice anyway.
    static let maxOpenBlock = 1 << 18

    /// Level 1's single-probe finder or the hash-chain finder of levels 2–9.
    private enum Finder {
        case fast(DeflaterFastMatchFinder)
        case chains(DeflaterMatchFinder)
    }

    /// An engine for `level` (0...9; 0 stores) and `strategy`.
    init(level: Int, strategy: DeflateStrategy) {
        self.level = level
        tokens = DeflaterTokenBuffer(capacity: level == 1 ? DeflaterTokenBuffer.fastCapacity : DeflaterTokenBuffer.defaultCapacity)
        finder = level == 1 ? .fast(DeflaterFastMatchFinder(strategy: strategy))
            : .chains(DeflaterMatchFinder(parameters: .forLevel(max(level, 2), strategy: strategy)))
    }

    /// Forgets all positions: the next buffer does not continue the previous one in memory.
    func reset() {
        switch finder {
        case .fast(let fast): fast.reset()
        case .chains(let chains): chains.reset()
        }
    }

    /// The caller moved its buffer's bytes `distance` places towards the front.
    func bufferShifted(by distance: Int) {
        openBlockStart = openBlockStart.map { $0 - distance }
    }

    /// Writes `buffer[start...]` as blocks, the last one with BFINAL if `isFinal`; matches may
    /// reach back into `buffer[..<start]` (up to 32 KiB), which was written before. Unless
    /// `isFinal`, the last block may stay open (``openBlockStart``) and continue in the next call,
    /// so band edges do not cost a block header each.
    func compress(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, isFinal: Bool, to writer: DeflaterBitWriter) {
        let raw = UnsafeRawBufferPointer(buffer)
        if level == 0 {
            DeflaterBlockWriter.writeStored(UnsafeRawBufferPointer(rebasing: raw[start...]), isFinal: isFinal, to: writer)
            return
        }
        var blockStart = openBlockStart ?? start
        openBlockStart = nil
        let flush = { (end: Int, isLast: Bool) in
            if isLast && !isFinal {
                self.openBlockStart = blockStart
                return
            }
            DeflaterBlockWriter.writeBlock(tokens: self.tokens,
                                           raw: blockStart >= 0 ? UnsafeRawBufferPointer(rebasing: raw[blockStart..<end]) : nil,
                                           isFinal: isLast && isFinal, to: writer)
            self.tokens.reset()
            blockStart = end
        }
        switch finder {
        case .fast(let fast): fast.tokenize(buffer, from: start, into: tokens, flush: flush)
        case .chains(let chains): chains.tokenize(buffer, from: start, into: tokens, flush: flush)
        }
    }
}
