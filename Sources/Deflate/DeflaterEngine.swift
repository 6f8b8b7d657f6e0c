/// The LZ77 and block-coding stage of a ``Deflater`` or ``StreamingDeflater``: tokenises a
/// buffer (after optional history it may refer back to) and writes the tokens as blocks.
final class DeflaterEngine {
    private let mode: Mode
    /// Where in the current buffer the block left open by the last ``compress(_:from:isFinal:to:)``
    /// starts (its tokens wait in `tokens`); nil when every block is written. Negative once the
    /// caller has dropped the block's first bytes: it can then no longer fall back to stored.
    private(set) var openBlockStart: Int?
    /// Longest open block whose bytes a caller keeps for the stored-block fallback: 256 KiB. A
    /// longer one averages more than 4 bytes per token (blocks hold at most 64 Ki tokens), so
    /// storing it would never be the smallest choice anyway.
    static let maxOpenBlock = 1 << 18

    /// Level 0 stores and needs neither tokens nor a match finder (the hash chains alone are
    /// 256 KB); level 1 uses the single-probe finder, levels 2–9 the hash-chain finder.
    private enum Mode {
        case stored
        case fast(DeflaterFastMatchFinder, DeflaterTokenBuffer)
        case chains(DeflaterMatchFinder, DeflaterTokenBuffer)
    }

    /// An engine for `level` (0...9; 0 stores) and `strategy`.
    init(level: Int, strategy: DeflateStrategy) {
        switch level {
        case ...0:
            mode = .stored
        case 1:
            mode = .fast(DeflaterFastMatchFinder(strategy: strategy),
                         DeflaterTokenBuffer(capacity: DeflaterTokenBuffer.fastCapacity))
        default:
            mode = .chains(DeflaterMatchFinder(parameters: .forLevel(level, strategy: strategy)),
                           DeflaterTokenBuffer(capacity: DeflaterTokenBuffer.defaultCapacity))
        }
    }

    /// Forgets all positions: the next buffer does not continue the previous one in memory.
    func reset() {
        switch mode {
        case .stored: break
        case .fast(let fast, _): fast.reset()
        case .chains(let chains, _): chains.reset()
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
        let tokens: DeflaterTokenBuffer
        switch mode {
        case .stored:
            DeflaterBlockWriter.writeStored(UnsafeRawBufferPointer(rebasing: raw[start...]), isFinal: isFinal, to: writer)
            return
        case .fast(_, let buffer), .chains(_, let buffer):
            tokens = buffer
        }
        var blockStart = openBlockStart ?? start
        openBlockStart = nil
        let flush = { (end: Int, isLast: Bool) in
            if isLast && !isFinal {
                self.openBlockStart = blockStart
                return
            }
            DeflaterBlockWriter.writeBlock(tokens: tokens,
                                           raw: blockStart >= 0 ? UnsafeRawBufferPointer(rebasing: raw[blockStart..<end]) : nil,
                                           isFinal: isLast && isFinal, to: writer)
            tokens.reset()
            blockStart = end
        }
        switch mode {
        case .stored: break
        case .fast(let fast, _): fast.tokenize(buffer, from: start, into: tokens, flush: flush)
        case .chains(let chains, _): chains.tokenize(buffer, from: start, into: tokens, flush: flush)
        }
    }
}
