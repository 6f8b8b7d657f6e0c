import ImageCore

/// GIF's variable-length-code LZW (GIF89a section 22 and Appendix F), decoding a stream that
/// arrives in pieces of any size into rows of colour indices.
///
/// The bit buffer, the code width and the table survive between calls, so each data byte is
/// read once however the sub-blocks and network chunks split the stream. Decoded strings are
/// written straight into the current row (back to front along the prefix chain, using the
/// stored string lengths), or through a scratch buffer when they cross a row boundary.
///
/// Rules, as browsers (Wuffs' `std/lzw`, which Chromium's behaviour matches on valid files) apply them:
/// - minimum code size (`literalWidth`) 0–11: clear code `1 << literalWidth`, end code one more,
///   first width `literalWidth + 1`. Literals above 255 (sizes 9–11, which Chromium accepts) keep
///   their low 8 bits.
/// - after a clear code the next free slot is the end code's: the first code defines nothing
///   (it must be a literal); every later code defines `previous + first byte of this string`.
/// - the width grows when the next free code reaches `1 << width`, up to 12 bits; once 4096
///   codes exist no more are defined and codes stay 12 bits wide ("deferred clear").
/// - a code above the next free code is an error; pixels decoded before it stay.
/// - once every pixel of the frame is out, the rest of the data is ignored (extra pixels are
///   dropped, as browsers do); an end code or the end of the data before that leaves the
///   remaining pixels untouched.
final class LZWDecoder {
    /// Codes are at most 12 bits wide.
    static let maxCodes = 4096
    static let maxWidth = 12
    /// The largest minimum code size accepted (Chromium's limit: the first width must stay ≤ 12).
    static let maxLiteralWidth = 11

    /// Where the decoder stands in one frame's data.
    enum Phase: Equatable {
        /// More codes are wanted.
        case decoding
        /// The end code was read.
        case endCodeSeen
        /// Every pixel of the frame has been produced; further data is ignored.
        case pixelsComplete
    }

    // Table entry `code`: the string `string(prefix[code]) + suffix[code]`, `length[code]` bytes
    // long, whose first byte is `first[code]`. Literal entries have length 1.
    private let prefix = UnsafeMutablePointer<UInt16>.allocate(capacity: maxCodes)
    private let suffix = UnsafeMutablePointer<UInt8>.allocate(capacity: maxCodes)
    private let first = UnsafeMutablePointer<UInt8>.allocate(capacity: maxCodes)
    private let length = UnsafeMutablePointer<UInt16>.allocate(capacity: maxCodes)
    /// A string that crosses a row boundary is assembled here first (strings are < 4096 bytes).
    private let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: maxCodes)

    private var literalWidth = 8
    private var clearCode = 256
    private var endCode = 257
    /// The slot the next defined string takes (Wuffs' `save_code`); 4096 when the table is full.
    private var nextCode = 257
    /// The previous code, or -1 right after a clear code.
    private var previous = -1
    private var width = 9
    /// Unread bits, least significant first (GIF packs codes LSB first); `bitCount` of them are
    /// counted. Bits above `bitCount` are zero or the stream's next bits (see the refill in `decode`).
    private var bits: UInt64 = 0
    private var bitCount = 0

    /// The row being filled: `rowWidth` indices, `rowFill` of them written.
    private var row = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private var rowCapacity = 1
    private var rowWidth = 0
    private var rowFill = 0
    private var rowsRemaining = 0
    private(set) var phase = Phase.decoding

    init() {}

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        first.deallocate()
        length.deallocate()
        scratch.deallocate()
        row.deallocate()
    }

    /// Resets for a frame of `width × height` pixels whose data uses `literalWidth` (0–11, checked by the caller).
    func start(literalWidth: Int, width frameWidth: Int, height frameHeight: Int) {
        self.literalWidth = literalWidth
        clearCode = 1 << literalWidth
        endCode = clearCode + 1
        nextCode = endCode
        previous = -1
        width = literalWidth + 1
        bits = 0
        bitCount = 0
        for code in 0..<clearCode {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            length[code] = 1
        }
        if frameWidth > rowCapacity {
            row.deallocate()
            row = .allocate(capacity: frameWidth)
            rowCapacity = frameWidth
        }
        rowWidth = frameWidth
        rowFill = 0
        rowsRemaining = frameWidth > 0 ? frameHeight : 0
        phase = rowsRemaining > 0 ? .decoding : .pixelsComplete
    }

    /// Decodes `data` (stream offset `offset`), handing each finished row of indices to `emitRow`
    /// (with the number of indices: the frame width).
    ///
    /// - Returns: the bytes read (all of `data` while pixels are wanted, fewer once the frame's
    ///   pixels are complete or its end code was read: up to the byte holding the last code's end).
    /// - Throws: `invalidData` for a code above the next free code, at the byte that completed it.
    func decode(_ data: UnsafeRawBufferPointer, at offset: Int, emitRow: (UnsafePointer<UInt8>, Int) -> Void) throws -> Int {
        guard phase == .decoding, let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let count = data.count
        // Hot state in locals (no property access, hence no exclusivity checks, in the loop).
        let prefix = self.prefix, suffix = self.suffix, first = self.first, length = self.length
        let scratch = self.scratch, row = self.row, rowWidth = self.rowWidth
        let clearCode = self.clearCode, endCode = self.endCode
        var position = 0
        var bits = self.bits, bitCount = self.bitCount
        var width = self.width, nextCode = self.nextCode, previous = self.previous
        var rowFill = self.rowFill, rowsRemaining = self.rowsRemaining
        defer {
            self.bits = bits
            self.bitCount = bitCount
            self.width = width
            self.nextCode = nextCode
            self.previous = previous
            self.rowFill = rowFill
            self.rowsRemaining = rowsRemaining
        }
        while true {
            if bitCount < width {
                if count - position >= 8 {
                    // Fast refill: 8 bytes at once, counting the whole bytes that fit above the
                    // `bitCount` < 12 bits held ((63 - bitCount) / 8 ≥ 6 of them). The bits of the
                    // next, uncounted bytes land where those bytes belong, so reading them again
                    // later ORs in the same values ("variant 4" of F. Giesen's bit readers).
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                    bits |= word &<< UInt64(bitCount)
                    let taken = (63 - bitCount) >> 3
                    position += taken
                    bitCount += 8 * taken
                } else {
                    // Careful twin: one byte at a time near the end of the data.
                    while bitCount < width {
                        guard position < count else { return position }
                        bits |= UInt64(base[position]) &<< UInt64(bitCount)   // bitCount < 12: no overshift
                        position += 1
                        bitCount += 8
                    }
                }
            }
            let code = Int(truncatingIfNeeded: bits & ((1 &<< UInt64(width)) &- 1))   // width ≤ 12
            bits &>>= UInt64(width)
            bitCount -= width
            if code == clearCode {
                nextCode = endCode
                previous = -1
                width = literalWidth + 1
                continue
            }
            if code == endCode {
                phase = .endCodeSeen
                return position - Self.wholeBytes(in: bitCount, readOf: position)
            }
            // A literal, a defined string, or the one string being defined (code == nextCode, "KwKwK").
            guard code < clearCode || code <= nextCode else {
                // The byte holding the code's last bit (the fast refill may have read further).
                throw ImageDecodingError(.invalidData, at: offset + position - 1 - (bitCount >> 3),
                                         "GIF LZW code \(code) is not in the table yet (next free code \(nextCode))")
            }
            if nextCode < Self.maxCodes {
                if previous >= 0 {
                    let firstByte = code == nextCode ? first[previous] : first[code]
                    prefix[nextCode] = UInt16(truncatingIfNeeded: previous)
                    suffix[nextCode] = firstByte
                    first[nextCode] = first[previous]
                    length[nextCode] = length[previous] &+ 1   // < 4096: one more than an existing entry
                }
                nextCode += 1
                if nextCode >= 1 &<< width && width < Self.maxWidth { width += 1 }
            }
            previous = code
            // Write the string into the row, or through `scratch` when it crosses a row boundary.
            let stringLength = Int(length[code])
            if stringLength <= rowWidth - rowFill {
                if stringLength == 1 {
                    row[rowFill] = suffix[code]   // most codes of noisy images are literals
                } else {
                    Self.writeString(code, length: stringLength, to: row + rowFill, prefix: prefix, suffix: suffix)
                }
                rowFill += stringLength
                guard rowFill == rowWidth else { continue }
                emitRow(UnsafePointer(row), rowWidth)
                rowFill = 0
                rowsRemaining -= 1
            } else {
                Self.writeString(code, length: stringLength, to: scratch, prefix: prefix, suffix: suffix)
                var copied = 0
                while copied < stringLength && rowsRemaining > 0 {
                    let piece = min(rowWidth - rowFill, stringLength - copied)
                    (row + rowFill).update(from: scratch + copied, count: piece)
                    rowFill += piece
                    copied += piece
                    if rowFill == rowWidth {
                        emitRow(UnsafePointer(row), rowWidth)
                        rowFill = 0
                        rowsRemaining -= 1
                    }
                }
            }
            if rowsRemaining == 0 {
                phase = .pixelsComplete
                return position - Self.wholeBytes(in: bitCount, readOf: position)
            }
        }
    }

    /// Whole bytes among the `bitCount` unused bits when decoding stops: only the fast refill reads
    /// bytes before they are needed, and they are not counted as read (as Wuffs rewinds them), so
    /// the bytes examined do not depend on how the data was split.
    @inline(__always)
    private static func wholeBytes(in bitCount: Int, readOf position: Int) -> Int { min(bitCount >> 3, position) }

    /// Writes `string(code)` back to front along the prefix chain (its length is exactly `length`).
    @inline(__always)
    private static func writeString(_ code: Int, length stringLength: Int, to target: UnsafeMutablePointer<UInt8>,
                                    prefix: UnsafeMutablePointer<UInt16>, suffix: UnsafeMutablePointer<UInt8>) {
        var code = code
        var index = stringLength - 1
        while index > 0 {
            target[index] = suffix[code]
            code = Int(prefix[code])
            index -= 1
        }
        target[0] = suffix[code]
    }

    /// At the end of the frame's data: hands out a row that was begun but not finished (its first
    /// `count` indices; the rest of the row keeps what the canvas had, as in Wuffs).
    func flushPartialRow(_ emitRow: (UnsafePointer<UInt8>, Int) -> Void) {
        guard rowFill > 0, rowsRemaining > 0 else { return }
        emitRow(UnsafePointer(row), rowFill)
        rowFill = 0
        rowsRemaining -= 1
    }
}
