/// The input side of ``Inflater``: pieces fed as they arrive (the byte-at-a-time entries, the
/// state machine's call), flushing and finishing, and the one-shot conveniences built on them.
extension Inflater {
    /// Decompresses `input`, handing the output to `sink` (the bytes are valid only during the
    /// call). Consumes all of `input` and decodes every token it completes.
    ///
    /// Output is handed over by the end of the call, except after a piece shorter than 8 bytes
    /// that leaves the stream inside a Huffman or stored block: then output waits until at least
    /// ``smallPieceDeliveryThreshold`` bytes have gathered (or a later call, ``flush(into:)``
    /// or the end of the block delivers it), so a caller fed a byte at a time pays one delivery
    /// per 1 KiB of output instead of one per byte. Such small pieces may also wait undecoded
    /// in the bit buffer: bytes that cannot complete the next token, then up to the length of
    /// the format's trailer (zlib 4 bytes, gzip 7, raw none) and, inside a block that is not the
    /// last, up to four more as far as the bit buffer takes them (see ``holdBelow``), to be decoded
    /// with the next bytes, so a decoding attempt is paid once per few bytes: an error in them
    /// comes from a later call (at the same offset, with all output before it), but the stream
    /// end still comes from the call that brings its last byte.
    /// ``flush(into:)`` decodes and delivers everything waiting; ``finish(into:)`` does too.
    ///
    /// - Returns: ``InflateStatus/streamEnd`` once the stream has ended, else ``InflateStatus/needsInput``.
    /// - Throws: ``InflateError``; the same error again on every later call.
    @inlinable @discardableResult
    public func feed(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> InflateStatus {
        // A byte that cannot change anything yet (see ``holdBelow``) goes into the bit buffer here,
        // inlined into the caller: a byte-at-a-time caller pays a compare and a shift-or for it.
        if input.count == 1, let base = input.baseAddress {
            let byte = base.load(as: UInt8.self)
            if bitCount < holdBelow {
                holdByte(byte)
                return .needsInput
            }
            switch decodeByte(byte) {
            case .settled: return .needsInput
            case .goOn: return try feedPiece(UnsafeRawBufferPointer(start: nil, count: 0), into: sink)
            case .declined: break
            }
        }
        return try feedPiece(input, into: sink)
    }

    /// Puts one byte into the bit buffer without decoding, counting it as consumed. Requires
    /// `bitCount < holdBelow` (so it fits).
    @inlinable @inline(__always)
    func holdByte(_ byte: UInt8) {
        bitBuffer |= UInt64(byte) &<< UInt64(truncatingIfNeeded: bitCount)
        bitCount &+= 8
        bytesTakenAlone &+= 1
    }

    /// ``feed(_:into:)`` past its one-byte fast path.
    @usableFromInline
    func feedPiece(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> InflateStatus {
        let count = input.count
        // Bytes that cannot hold the stream's end wait undecoded in the bit buffer (``holdBelow``
        // is 0 unless the last call stopped inside a Huffman block with room for them): each of
        // them, the last arriving at `bitCount + 8 * (count - 1)`.
        if count > 0, bitCount &+ (count &- 1) &<< 3 < holdBelow, let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            pullIntoBitBuffer(bytes, count: count)
            return .needsInput
        }
        // A few bytes inside a Huffman block (a network delivering a byte at a time): straight
        // into the bit buffer and the buffered loop, without the state machine's dispatch or
        // the input pointers. A byte fits: after the buffered loop stops for input, fewer bits
        // are buffered than the next token needs (at most 48). `smallPieceOutputLimit` is -1
        // unless the inflater is inside a Huffman block and has not failed.
        if count < Inflater.fastInputMargin, outputPosition <= smallPieceOutputLimit, count &<< 3 <= 63 &- bitCount,
           let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            pullIntoBitBuffer(bytes, count: count)
            if decodeHeldBits(outputLimit: smallPieceOutputLimit) == .settled { return .needsInput }
            // The state machine goes on from the bit buffer (the piece is in it).
            return try advance(UnsafeRawBufferPointer(start: nil, count: 0), sink)
        }
        // The same inside a stored block: the bytes are the output, copied without the dispatch.
        if count < Inflater.fastInputMargin, count <= storedPieceRoom, let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self), count > 0,
           try copyStoredPiece(bytes, count: count, sink) {
            return .needsInput
        }
        if let failure { throw failure }
        return try advance(input, sink)
    }

    /// The output position up to which ``feed(_:into:)`` may take a small piece straight to the
    /// buffered loop: ``fastLoopOutputLimit`` inside a Huffman block, else -1 (never). Set after
    /// every call through the state machine, the only place the mode, the delivered count (which
    /// the limit depends on) or `failure` change.
    private func refreshSmallPieceOutputLimit(afterSmallPiece: Bool) {
        holdBelow = 0
        storedPieceRoom = 0
        switch mode {
        case .huffmanData where failure == nil:
            smallPieceOutputLimit = fastLoopOutputLimit
            refreshHoldBounds(workingOutEndOfBlock: afterSmallPiece)
        case .storedCopy(let remaining) where failure == nil && bitCount == 0:
            smallPieceOutputLimit = -1
            storedPieceRoom = max(0, min(remaining - 1, windowCapacity - outputPosition, outputLimitPosition - outputPosition))
        default:
            smallPieceOutputLimit = -1
        }
    }

    /// Runs the state machine over `input`, then hands all new output to `sink`.
    private func advance(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> InflateStatus {
        let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(emptyInput)
        inputStart = start
        inputPosition = start
        inputEnd = start + input.count
        defer {
            consumedBeforeCall += inputPosition - inputStart
            let empty = UnsafePointer(emptyInput)
            inputStart = empty
            inputPosition = empty
            inputEnd = empty
            // A piece of 1–7 bytes, not a flush or an empty feed (a PNG decoder flushes after every
            // hand-over): only such a caller feeds bytes that may wait.
            refreshSmallPieceOutputLimit(afterSmallPiece: input.count > 0 && input.count < Inflater.fastInputMargin)
        }
        do {
            try run(sink)
            // Most small feeds produce nothing: skip the call.
            if outputPosition != deliveredPosition { try deliver(sink) }
        } catch let error as InflateError {
            failure = error
            // What was decoded before the error still reaches the sink (never past the output limit).
            try? deliver(sink)
            throw error
        }
        return isFinished ? .streamEnd : .needsInput
    }

    /// Decodes the input bytes that wait undecoded (see ``feed(_:into:)``) and hands all output
    /// that has not reached a sink yet to `sink`: afterwards the sink has seen everything the
    /// input so far determines, as if every piece had been fed at once.
    ///
    /// - Throws: as ``feed(_:into:)`` (an error those bytes reveal, the sink's errors).
    public func flush(into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let failure { throw failure }
        _ = try advance(UnsafeRawBufferPointer(start: nil, count: 0), sink)
    }

    /// Declares the end of input. Of a stream cut short, the output its last few bytes determine
    /// may still be waiting (see ``feed(_:into:)``) and is dropped: ``finish(into:)`` delivers it.
    ///
    /// - Throws: ``InflateError/Kind/truncated`` unless the stream ended; a trailing-data error
    ///   if a lone byte that might have started a gzip member is pending; an error the bytes
    ///   still waiting reveal.
    public func finish() throws {
        try finish { _ in }
    }

    /// Declares the end of input, handing the output still waiting (see ``flush(into:)``) to
    /// `sink` first: of a stream cut short, the last output its bytes determine. A complete
    /// stream has none waiting (its end is reported with its last byte).
    ///
    /// - Throws: as ``finish()``, or an error the waiting bytes reveal.
    public func finish(into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let failure { throw failure }
        if !isFinished { _ = try advance(UnsafeRawBufferPointer(start: nil, count: 0), sink) }
        guard isFinished else {
            let error = InflateError(.truncated, at: totalIn, "the compressed stream ended early (\(modeDescription))")
            failure = error
            smallPieceOutputLimit = -1
            throw error
        }
    }

    private var modeDescription: String {
        switch mode {
        case .zlibHeader: return "in the zlib header"
        case .gzipHeader: return "in the gzip header"
        case .trailer: return "in the checksum trailer"
        case .done, .gzipNextMember: return "at the end"
        default: return "inside a compressed block"
        }
    }
}

extension Inflater {
    /// Feeds an array. See ``feed(_:into:)``.
    @discardableResult
    public func feed(_ input: [UInt8], into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> InflateStatus {
        try input.withUnsafeBytes { try feed($0, into: sink) }
    }

    /// Decompresses a whole stream at once.
    ///
    /// - Throws: ``InflateError``, including ``InflateError/Kind/trailingData`` for bytes after
    ///   the end unless `options.rejectTrailingData` is false.
    public static func decompress(_ data: [UInt8], format: DeflateFormat = .zlib,
                                  options: InflateOptions = InflateOptions()) throws -> [UInt8] {
        let inflater = Inflater(format: format, options: options)
        var output: [UInt8] = []
        output.reserveCapacity(min(data.count * 4, options.maxOutputBytes))
        try inflater.feed(data) { output.append(contentsOf: $0) }
        try inflater.finish()
        return output
    }

    /// Decompresses a whole stream straight into `output`, whose size the caller knows (a PNG's
    /// image data, a gzip ISIZE, a container's stored length), and returns the bytes written.
    ///
    /// The buffer is the history window, so nothing is copied or slid: the fastest way to inflate.
    /// Checks, errors and their offsets are those of the streaming ``feed(_:into:)``; a stream
    /// that needs more room than `output` (or than `options.maxOutputBytes`) throws
    /// ``InflateError/Kind/outputLimitExceeded`` at the token that crosses the end. After an
    /// error the bytes before the failing token are written; the rest of `output` is unspecified.
    public static func decompress(_ data: UnsafeRawBufferPointer, format: DeflateFormat = .zlib,
                                  into output: UnsafeMutableRawBufferPointer,
                                  options: InflateOptions = InflateOptions()) throws -> Int {
        var limited = options
        limited.maxOutputBytes = min(options.maxOutputBytes, output.count)
        let bytes = output.bindMemory(to: UInt8.self)
        // An empty buffer has no address: the inflater's own window then checks the zero limit.
        let inflater = Inflater(format: format, options: limited, fixedOutput: bytes.baseAddress == nil ? nil : bytes)
        try inflater.feed(data) { _ in }
        try inflater.finish()
        return inflater.totalOut
    }
}
