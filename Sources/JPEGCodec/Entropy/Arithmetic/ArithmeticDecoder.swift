/// The binary arithmetic decoder of T.81 Annex D (D.2: DECODE, RENORM_D, BYTE_IN), reading
/// entropy-coded bytes the way libjpeg does: `0xFF 0x00` is a data byte 0xFF, a run of 0xFF
/// before the 0x00 is swallowed, and from a marker on (or the end of all input) the decoder
/// reads zero bytes, which T.81 allows: the encoder may drop trailing zeros.
///
/// `c` holds the code register and the `ct` not-yet-used input bits below it, like libjpeg's C,
/// but shifted left by 32 − `ct` so the code register always sits at bit 32: a decision compares
/// with a constant shift of the interval (libjpeg shifts by `ct` each time), and
/// renormalisation shifts `c` with `a`. Invariant: `c < a << 32`, so `c` stays below 2^49.
///
/// `bytes` is the caller's buffer for one decoding batch; `position` indexes it and is rebased
/// by the caller between batches. The struct is a value: copying it is a snapshot.
struct ArithmeticDecoder {
    /// Code register (at bit 32) with the input bits below it.
    var c = 0
    /// Interval size A; 0 until the first two bytes of an interval are read (``start()``).
    var a = 0
    /// Input bits in `c` below the 16-bit code register.
    var ct = 0
    /// Index in `bytes` of the next byte to read.
    var position = 0
    /// The readable bytes of this batch.
    var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The fast path reads `bytes[position]` while `position < limit`; 0 once reading stopped.
    private var limit = 0
    /// A marker was reached (or the end of all input, like libjpeg's inserted EOI): zeros follow.
    private(set) var markerHit = false
    /// The end of the buffered bytes was reached although more input may come: the decisions
    /// since then used invented zeros and must be undone by the caller.
    private(set) var ranOutOfData = false
    /// The end of the buffer is the end of all input (it reads as a marker).
    var inputComplete = false
    /// Entropy-coded data bytes read (stuffed pairs count once), for the caller's look-ahead.
    private(set) var dataBytesRead = 0
    /// While decoding tentatively: reading more data bytes than this counts as running out.
    private var dataByteBudget = Int.max
    /// T.81 Table D.2, packed (``ArithmeticStateTable``).
    let table = ArithmeticStateTable.pointer

    /// Lets the decoder read at most `count` more data bytes (more counts as running out of
    /// data), so a tentative MCU succeeds or fails on the data alone, however it was split.
    mutating func beginTentative(dataBytes count: Int) {
        dataByteBudget = dataBytesRead + count
        limit = 0     // every byte through the careful path, which checks the budget
    }

    /// Ends ``beginTentative(dataBytes:)``.
    mutating func endTentative() {
        dataByteBudget = Int.max
        limit = markerHit || ranOutOfData ? 0 : bytes.count
    }

    /// Whether ``start()`` must run before the next decision (at a scan or restart interval start).
    var needsStart: Bool { a == 0 }

    /// Points the decoder at a new batch of bytes; `position` 0 is the first byte not yet read.
    mutating func rebase(on newBytes: UnsafeRawBufferPointer, inputComplete complete: Bool) {
        bytes = newBytes
        position = 0
        inputComplete = complete
        ranOutOfData = false
        limit = markerHit ? 0 : newBytes.count
    }

    /// Restarts the decoder for a new interval (T.81 D.2.7 INITDEC, done lazily): `a` = 0 makes
    /// the next MCU read two bytes first. `atMarker` says the coming data is missing (a marker
    /// was left unread), so the interval reads zeros.
    mutating func reset(atMarker: Bool) {
        c = 0
        a = 0
        ct = 0
        markerHit = atMarker
        limit = atMarker ? 0 : bytes.count
    }

    /// INITDEC: the first two bytes fill the code register.
    mutating func start() {
        ct = -16
        insertByte()
        insertByte()
        a = 0x10000
    }

    /// DECODE (T.81 D.2.4/D.2.5 with libjpeg's conditional exchanges): one binary decision with
    /// the statistics bin `bin` (`MPS << 7 | state`), which it updates. Returns 0 or 1.
    ///
    /// Written without branches (the outcome is unpredictable by design, and the caller branches
    /// on it anyway): the decoded symbol is the LPS exactly when "the code lies in the LPS
    /// sub-interval" differs from "the MPS sub-interval is the smaller one" (conditional
    /// exchange), and the state moves only when the interval will need renormalising.
    /// ``decodeWithBranches(_:)`` is the same procedure spelled out as T.81 and libjpeg write it.
    @inline(__always)
    mutating func decode(_ bin: UnsafeMutablePointer<UInt8>) -> Int {
        if a < 0x8000 { renormalize() }
        let sv = Int(bin.pointee)
        let entry = Int(table[sv & 0x7F])
        let qe = entry &>> 16
        let mpsSize = a &- qe
        let scaled = mpsSize &<< 32
        let inLPS = c >= scaled
        let symbolIsLPS = inLPS != (mpsSize < qe)
        c = inLPS ? c &- scaled : c
        a = inLPS ? qe : mpsSize
        let next = symbolIsLPS ? entry & 0xFF : (entry &>> 8) & 0xFF
        let moves = inLPS || mpsSize < 0x8000
        bin.pointee = UInt8(truncatingIfNeeded: moves ? (sv & 0x80) ^ next : sv)
        return (sv &>> 7) ^ (symbolIsLPS ? 1 : 0)
    }

    /// ``decode(_:)`` with the branches of T.81 Figures D.3–D.5 as libjpeg writes them: the
    /// careful twin the branch-free version is tested against.
    mutating func decodeWithBranches(_ bin: UnsafeMutablePointer<UInt8>) -> Int {
        if a < 0x8000 { renormalize() }
        var sv = Int(bin.pointee)
        let entry = Int(table[sv & 0x7F])
        let qe = entry >> 16
        a -= qe
        let scaled = a << 32
        if c >= scaled {
            c -= scaled
            // LPS path; when the MPS sub-interval turned out smaller, the symbol is the MPS.
            if a < qe {
                bin.pointee = UInt8((sv & 0x80) ^ ((entry >> 8) & 0xFF))
            } else {
                bin.pointee = UInt8((sv & 0x80) ^ (entry & 0xFF))
                sv ^= 0x80
            }
            a = qe
        } else if a < 0x8000 {
            // MPS path needing renormalisation; a smaller-than-LPS interval swaps the symbols.
            if a < qe {
                bin.pointee = UInt8((sv & 0x80) ^ (entry & 0xFF))
                sv ^= 0x80
            } else {
                bin.pointee = UInt8((sv & 0x80) ^ ((entry >> 8) & 0xFF))
            }
        }
        return sv >> 7
    }

    /// RENORM_D: doubles `a` (and `c`) until `a` reaches 0x8000 (1...15 times, `a` ≥ 1), taking a
    /// byte into `c` whenever the input bits run out.
    @inline(__always)
    private mutating func renormalize() {
        let shift = UInt32(truncatingIfNeeded: a).leadingZeroBitCount &- 16
        a &<<= shift
        c &<<= shift
        ct &-= shift
        if ct < 0 {
            insertByte()
            if ct < 0 { insertByte() }
        }
    }

    /// BYTE_IN: appends the next data byte to `c` (zero past a marker), below its `ct` input bits.
    /// `ct` may be negative here (bits already shifted in as zeros): the byte then fills them.
    @inline(__always)
    private mutating func insertByte() {
        if position < limit {
            let byte = bytes[position]
            if byte != 0xFF {
                position &+= 1
                dataBytesRead &+= 1
                c |= Int(byte) &<< (24 &- ct)
                ct &+= 8
                return
            }
        }
        self = insertingByteCarefully()
    }

    /// The byte-at-a-time twin of ``insertByte()`` for 0xFF, markers and the buffer's end. It
    /// returns the new state rather than mutating, so callers' decoders can stay in registers.
    @inline(never)
    private func insertingByteCarefully() -> ArithmeticDecoder {
        var copy = self
        let data = copy.carefulByte()
        copy.c |= data &<< (24 &- copy.ct)
        copy.ct &+= 8
        return copy
    }

    /// The next data byte, or 0 past a marker or the buffered bytes.
    private mutating func carefulByte() -> Int {
        if markerHit || ranOutOfData { return 0 }
        if dataBytesRead >= dataByteBudget {
            ranOutOfData = true
            return 0
        }
        var index = position
        guard index < bytes.count else { return endOfBytes() }
        let byte = bytes[index]
        index += 1
        if byte != 0xFF {
            position = index
            dataBytesRead += 1
            return Int(byte)
        }
        // libjpeg swallows a run of 0xFF: 0xFF…0xFF 0x00 is one data byte 0xFF.
        while index < bytes.count && bytes[index] == 0xFF { index += 1 }
        guard index < bytes.count else { return endOfBytes() }
        if bytes[index] == 0 {
            position = index + 1
            dataBytesRead += 1
            return 0xFF
        }
        // A marker: it stays unread (`position` is on its first 0xFF) and zeros follow.
        markerHit = true
        limit = 0
        return 0
    }

    /// The buffered bytes ended: the end of the input reads as a marker, as libjpeg's inserted EOI.
    private mutating func endOfBytes() -> Int {
        if inputComplete { markerHit = true } else { ranOutOfData = true }
        limit = 0
        return 0
    }
}
