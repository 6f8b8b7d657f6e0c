/// Streaming DEFLATE decompressor for zlib (RFC 1950), raw DEFLATE (RFC 1951) and gzip (RFC 1952).
///
/// Feed compressed bytes in pieces of any size; output is handed to a sink by the end of the
/// call (after pieces under 8 bytes, once 256 bytes have gathered; ``flush(into:)`` hands over
/// the rest at once). Every input byte is read into the bit buffer once and never re-read, so
/// total work is O(input + output) however the input is split.
///
/// ```swift
/// let inflater = Inflater(format: .zlib)
/// for piece in pieces { try inflater.feed(piece) { output in consume(output) } }
/// try inflater.finish { output in consume(output) }   // a cut stream's last output, then `truncated`
/// ```
///
/// Design: an explicit state machine (``InflateMode``) with a 64-bit bit buffer kept between
/// calls. Huffman data goes through a fast loop while at least 8 input bytes and 258 + 32 bytes of
/// output room remain (one unchecked 8-byte refill per token), and through a careful
/// token-at-a-time twin otherwise, which stops cleanly between tokens. Errors are sticky.
public final class Inflater {
    /// The wrapper format being decoded.
    public let format: DeflateFormat
    /// The options in force.
    public let options: InflateOptions
    /// Input bytes consumed so far (including any trailing bytes counted after the end).
    public var totalIn: Int { consumedBeforeCall + bytesTakenAlone + (inputPosition - inputStart) }
    /// Output bytes produced so far (handed to the sink, or about to be at the end of this call).
    public var totalOut: Int { deliveredTotal + (outputPosition - deliveredPosition) }
    /// Input bytes taken into the decoder so far, counted where they are taken: by the bit reader
    /// (careful path byte by byte, fast loop by the whole bytes each refill advances), by stored-block
    /// copies and as trailing data. No path re-reads a byte it has taken (a refill's 8-byte load
    /// reads ahead but only advances past the bytes it keeps), so this never exceeds the input
    /// length: tests use it to show that feeding 1 byte at a time does no extra work.
    public var inputBytesExamined: Int { examinedCount + bytesTakenAlone }
    /// See ``inputBytesExamined``: the bytes the other paths take.
    @exclusivity(unchecked) var examinedCount = 0
    /// Bytes fed alone (1-byte pieces) that went into the bit buffer: both consumed and examined,
    /// counted once here so the byte-at-a-time path pays one counter, not two.
    @usableFromInline @exclusivity(unchecked) var bytesTakenAlone = 0
    /// Bytes seen after the end of the stream (only when trailing data is not rejected).
    @exclusivity(unchecked) public internal(set) var trailingByteCount = 0
    /// Whether the end of the stream (for gzip: of a member) has been reached.
    public var isFinished: Bool {
        // A pattern match, not `==`: comparing enums with payloads costs a call per check.
        switch mode {
        case .done, .gzipNextMember: return true
        default: return false
        }
    }

    // MARK: State kept between calls
    //
    // `@exclusivity(unchecked)`: an inflater is used by one thread at a time and its methods never
    // hand out overlapping accesses to this state, so the runtime's dynamic exclusivity checks
    // (swift_beginAccess on every property access the optimiser cannot see through) are pure
    // cost: a quarter of the instructions when input arrives a byte at a time.

    @exclusivity(unchecked) var mode: InflateMode
    /// Bits not yet consumed, LSB first. Invariant between calls: bits at and above `bitCount` are zero.
    @usableFromInline @exclusivity(unchecked) var bitBuffer: UInt64 = 0
    /// Valid bits in `bitBuffer` (0...63).
    @usableFromInline @exclusivity(unchecked) var bitCount = 0
    /// Whether the block being decoded is the last one (BFINAL).
    @exclusivity(unchecked) var isFinalBlock = false
    /// The end-of-block codeword of the current Huffman block's code, bit reversed as it arrives,
    /// and its length, 0 while not yet worked out (see ``endOfBlockCodewordOfThisBlock()``).
    @exclusivity(unchecked) var endOfBlockCodeword: UInt64 = 0
    @exclusivity(unchecked) var endOfBlockLength = 7
    /// A multi-byte field read across calls: bytes so far, little-endian, and how many.
    @exclusivity(unchecked) var partialValue: UInt64 = 0
    @exclusivity(unchecked) var partialCount = 0
    /// Whether the literal/length and distance tables hold the fixed codes (so a fixed block need not rebuild them).
    @exclusivity(unchecked) var tablesHoldFixedCodes = false
    /// Whether the gzip header being read follows an earlier member (so a mismatch is trailing data, not a bad header).
    @exclusivity(unchecked) var startedAnotherMember = false
    /// gzip FLG of the current member.
    @exclusivity(unchecked) var gzipFlags: UInt8 = 0
    /// CRC-32 of the gzip header bytes so far (for FHCRC).
    @exclusivity(unchecked) var gzipHeaderCRC = CRC32()
    /// Dynamic header counts: literal/length codes, distance codes, code-length codes.
    @exclusivity(unchecked) var literalCount = 0
    @exclusivity(unchecked) var distanceCount = 0
    @exclusivity(unchecked) var codeLengthCount = 0
    /// Code lengths of a dynamic header: 19 code-length code lengths, then up to 286 + 30 lengths.
    let codeLengths: UnsafeMutablePointer<UInt8>
    /// Bytes after the last code length that repeats may overwrite (see ``fillCodeLengths(_:_:count:)``).
    static let codeLengthSlack = 7
    /// Decode tables (see ``HuffmanEntry`` for the entry layout).
    let literalTable: UnsafeMutablePointer<UInt32>
    let distanceTable: UnsafeMutablePointer<UInt32>
    /// Where the distance table starts in the literal/length table's allocation: the literal/length
    /// table's capacity (a literal, so the fast loop's address arithmetic folds it).
    static let distanceTableOffset = 6656
    let codeLengthTable: UnsafeMutablePointer<UInt32>
    /// Running checksums of the output: Adler-32 for zlib, CRC-32 for gzip.
    @exclusivity(unchecked) var adler = Adler32()
    @exclusivity(unchecked) var crc = CRC32()
    /// Output produced by the current gzip member (for ISIZE).
    @exclusivity(unchecked) var memberOutput = 0
    @exclusivity(unchecked) var failure: InflateError?

    // MARK: Output window

    /// Output buffer that is also the history window.
    ///
    /// `window[0 ..< deliveredPosition]` has been handed to the sink; `window[deliveredPosition ..<
    /// outputPosition]` is new output. When room runs out, new output is delivered and the last
    /// 32 KiB slide to the front, so a match (at most 32 768 back) always reads from inside the
    /// buffer and copies need no wrap-around. Capacity 256 KiB + 8 KiB.
    ///
    /// Or, for ``decompress(_:format:into:options:)``, the caller's buffer: the whole output, which
    /// never slides (a gzip member after the first starts a new window where the last one ended).
    @exclusivity(unchecked) var window: UnsafeMutablePointer<UInt8>
    /// Bytes at `window`.
    @exclusivity(unchecked) var windowCapacity: Int
    /// Whether `window` is the inflater's own sliding window (else the caller's buffer).
    let ownsWindow: Bool
    /// Capacity of the inflater's own window.
    static let slidingWindowCapacity = (1 << 18) + (1 << 13)
    /// Room the fast loop keeps past its output position: 258 + 32 = 290 bytes for one match
    /// written in chunks of up to 16 bytes, at least 32 bytes at a time.
    static let fastOutputSlack = 290
    /// The fast loop runs while `outputPosition <= fastOutputLimit`.
    ///
    /// In a caller's buffer (which never slides) the fast loop also stops after about
    /// ``checksumStride`` bytes not yet in the running checksum, so ``makeRoom(_:)`` sums them while
    /// they are still in the core's cache, instead of one pass over megabytes of output at the end.
    var fastOutputLimit: Int {
        @inline(__always) get {
            let end = windowCapacity - Inflater.fastOutputSlack
            return sumsAsItGoes ? min(end, checksummedPosition + Inflater.checksumStride) : end
        }
    }
    /// See ``fastOutputLimit``: a quarter of a core's L2 cache here (512 KiB); 32 KiB measured slower, 64 KiB about the same.
    static let checksumStride = 1 << 17
    /// Whether the output is summed every ``checksumStride`` bytes: a caller's buffer, and a
    /// checksum to verify.
    let sumsAsItGoes: Bool
    /// The fast loop runs while at least this many input bytes remain: one 8-byte refill per token.
    static let fastInputMargin = 8
    /// After a piece shorter than ``fastInputMargin`` that ended inside a Huffman block, new output
    /// goes to the sink only once at least this many bytes wait: a caller fed a byte at a time would
    /// otherwise pay a delivery (and its own sink) for every byte or two of output. 1 KiB: a
    /// twentieth of a 4K-wide RGBA8 row, and 2 % fewer instructions than 256 bytes for a 16-bit
    /// photo fed a byte at a time.
    static let smallPieceDeliveryThreshold = 1024
    @exclusivity(unchecked) var outputPosition = 0
    /// See ``refreshSmallPieceOutputLimit(afterSmallPiece:)``.
    @exclusivity(unchecked) var smallPieceOutputLimit = -1
    /// How many more bytes of small pieces ``feedPiece(_:into:)`` may copy straight into the
    /// window: inside a stored block with no bytes in the bit buffer, fewer than the block still
    /// holds (its last byte goes through the state machine, which ends the block), within the
    /// window and the output limit; else 0. Set with ``smallPieceOutputLimit``.
    @exclusivity(unchecked) var storedPieceRoom = 0
    /// Small pieces go into the bit buffer without being decoded while `bitCount < holdBelow`
    /// (checked for each byte): a byte-at-a-time caller then pays for a decoding attempt once per
    /// few bytes, not per byte. Set after a small piece's attempt stopped for input, and 0 after
    /// any call through the state machine. Two kinds of byte may wait: those that cannot complete
    /// the token the attempt stopped at (an attempt could decode nothing), then up to
    /// ``heldInputLimit`` more and, inside a block before the final one, the bits of
    /// ``leastBitsOfAFinalBlock``; at most 48, so a byte still fits after the last that waits.
    ///
    /// Which bytes cannot complete the token: bits above the buffered count are zero, and in a
    /// canonical code the codeword reached by appending zeros to a prefix is the shortest one
    /// starting with it (shorter codewords come first), so the entry looked up with zeros for the
    /// missing bits tells the least the token can take (`needed` bits): its codeword length while
    /// the codeword is incomplete, else the whole length (codeword and extra bits), plus, for a
    /// match, the same of the distance. A byte arriving at `bitCount < needed - 8` cannot complete
    /// it; with the trailer's bytes, `holdBelow = min(needed - 8 + 8 * heldInputLimit, 48)`,
    /// and before the final block the least that block takes (``leastBitsOfAFinalBlock``) and,
    /// unless the token may be the end of the block, the end-of-block codeword's length (the
    /// block's end comes first): then the last byte that waits arrives at least 8 bits before the
    /// stream's last bit, so the call bringing that bit decodes everything.
    @usableFromInline @exclusivity(unchecked) var holdBelow = 0
    /// The most input bytes that may wait undecoded: the length of the format's trailer (zlib 4,
    /// gzip 8 but the bit buffer takes 7, raw 0). The stream's end is the trailer's last byte,
    /// at least that many bytes after the end-of-block code of the final block, so the call that
    /// brings the last byte always brings more than may wait and decodes them: `.streamEnd`
    /// still comes from the call with the stream's last byte.
    let heldInputLimit: Int
    /// `8 * heldInputLimit - 8` (see ``holdBelow``).
    let heldInputBits: Int
    /// The fewest bits a final block takes (RFC 1951 3.2.3): a 3-bit header and a fixed-code
    /// end-of-block (7 bits); a stored block takes more (its 32-bit LEN and NLEN), a dynamic one
    /// more still. Inside a block that is not the last, the stream's end is at least this many
    /// bits after the end of the token being decoded, so that many more bits may wait.
    static let leastBitsOfAFinalBlock = 10
    @exclusivity(unchecked) var deliveredPosition = 0
    /// What ``settle(needed:bits:available:position:)`` needs of the block being decoded (see
    /// ``refreshHoldBounds(workingOutEndOfBlock:)``): the output position at which output stops
    /// waiting; the bits after the pending token if it is not the end of the block (the trailer's
    /// and, before the final block, the end-of-block codeword and the final block);
    /// the end-of-block codeword, its length and a mask of its bits (length and mask 0 in the
    /// final block and while the codeword is not worked out).
    @exclusivity(unchecked) var smallPieceDeliveryPosition = 0
    @exclusivity(unchecked) var holdFloor = 0
    @exclusivity(unchecked) var holdEndOfBlockLength = 0
    @exclusivity(unchecked) var holdEndOfBlockMask: UInt64 = 0
    @exclusivity(unchecked) var holdEndOfBlockCodeword: UInt64 = 0
    /// Whether those bounds are not yet the current block's (set when a block header is read).
    @exclusivity(unchecked) var holdBoundsStale = true
    /// `window[checksummedPosition ..< deliveredPosition]` is delivered but not yet in the running checksum.
    @exclusivity(unchecked) var checksummedPosition = 0
    @exclusivity(unchecked) var deliveredTotal = 0

    // MARK: Input of the call under way

    @exclusivity(unchecked) var inputStart: UnsafePointer<UInt8>
    @exclusivity(unchecked) var inputPosition: UnsafePointer<UInt8>
    @exclusivity(unchecked) var inputEnd: UnsafePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var consumedBeforeCall = 0
    /// Where the input pointers rest between calls (never read: start == end).
    let emptyInput = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    /// Makes an inflater.
    public convenience init(format: DeflateFormat = .zlib, options: InflateOptions = InflateOptions()) {
        self.init(format: format, options: options, fixedOutput: nil)
    }

    /// Makes an inflater whose output goes into `fixedOutput` (whole, no sliding window; the
    /// limit of `options` must not exceed its size) or, for nil, through its own window.
    init(format: DeflateFormat, options: InflateOptions, fixedOutput: UnsafeMutableBufferPointer<UInt8>?) {
        self.format = format
        self.options = options
        switch format {
        case .zlib: mode = .zlibHeader; heldInputLimit = 4
        case .raw: mode = .blockHeader; heldInputLimit = 0
        case .gzip: mode = .gzipHeader(.fixed); heldInputLimit = 7
        }
        heldInputBits = 8 * heldInputLimit - 8
        codeLengths = .allocate(capacity: 19 + 286 + 30 + Inflater.codeLengthSlack)
        codeLengths.initialize(repeating: 0, count: 19 + 286 + 30 + Inflater.codeLengthSlack)
        assert(Inflater.distanceTableOffset == HuffmanTableBuilder.layout(.literalLength).capacity)
        // One allocation: the fast loop reaches the distance table at a constant offset from the
        // literal/length table, which saves it a register.
        literalTable = .allocate(capacity: Inflater.distanceTableOffset + HuffmanTableBuilder.layout(.distance).capacity)
        distanceTable = literalTable + Inflater.distanceTableOffset
        codeLengthTable = .allocate(capacity: HuffmanTableBuilder.layout(.codeLength).capacity)
        if let buffer = fixedOutput, let base = buffer.baseAddress {
            window = base
            windowCapacity = buffer.count
            ownsWindow = false
            sumsAsItGoes = format != .raw && options.verifyChecksums
        } else {
            window = .allocate(capacity: Inflater.slidingWindowCapacity)
            windowCapacity = Inflater.slidingWindowCapacity
            ownsWindow = true
            sumsAsItGoes = false
        }
        emptyInput.initialize(to: 0)
        let empty = UnsafePointer(emptyInput)
        inputStart = empty
        inputPosition = empty
        inputEnd = empty
    }

    deinit {
        codeLengths.deallocate()
        literalTable.deallocate()   // with the distance table
        codeLengthTable.deallocate()
        if ownsWindow { window.deallocate() }
        emptyInput.deallocate()
    }

    /// Byte offset of the next unread bit: what errors report.
    var currentOffset: Int { totalIn - (bitCount + 7) / 8 }

    func fail(_ kind: InflateError.Kind, _ message: String, at offset: Int? = nil) -> InflateError {
        InflateError(kind, at: offset ?? currentOffset, message)
    }

    /// The window position past which output would exceed ``InflateOptions/maxOutputBytes``
    /// (clamped to the window's capacity when the limit is further away).
    var outputLimitPosition: Int {
        @inline(__always) get {
            let allowed = options.maxOutputBytes - deliveredTotal
            return allowed >= windowCapacity ? windowCapacity : deliveredPosition + max(allowed, 0)
        }
    }

    func outputLimitError(at offset: Int) -> InflateError {
        fail(.outputLimitExceeded, "the output grows past the limit of \(options.maxOutputBytes) bytes", at: offset)
    }
}
