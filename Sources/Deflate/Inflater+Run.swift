extension Inflater {
    /// Advances the state machine as far as the input of this call allows.
    func run(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            switch mode {
            case .zlibHeader:
                guard let value = takeLittleEndian(2) else { return }
                try checkZlibHeader(value)
                mode = .blockHeader
            case .gzipHeader(let stage):
                guard try advanceGzipHeader(stage, startsAnotherMember: startedAnotherMember) else { return }
            case .blockHeader:
                guard needBits(3) else { return }
                let header = takeBits(3)
                isFinalBlock = header & 1 == 1
                holdBoundsStale = true
                switch header >> 1 {
                case 0:
                    alignToByte()
                    mode = .storedHeader
                case 1:
                    loadFixedTables()
                    mode = .huffmanData
                case 2:
                    mode = .dynamicCounts
                default:
                    throw fail(.invalidBlockType, "block type 3 is reserved (RFC 1951 3.2.3)")
                }
            case .storedHeader:
                guard let value = takeLittleEndian(4) else { return }
                let length = Int(value & 0xFFFF), complement = Int(value >> 16)
                guard length == complement ^ 0xFFFF else {
                    throw fail(.storedLengthMismatch, "stored block LEN \(length) and NLEN \(complement) are not one's complements", at: currentOffset - 4)
                }
                mode = .storedCopy(remaining: length)
            case .storedCopy(let remaining):
                let left = try copyStored(remaining, sink)
                guard left == 0 else { mode = .storedCopy(remaining: left); return }
                endBlock()
            case .dynamicCounts, .dynamicCodeLengthLengths, .dynamicLengths:
                guard try readDynamicHeader() else { return }
            case .huffmanData:
                guard try decodeHuffmanData(sink) else { return }
                endBlock()
            case .trailer:
                guard try readTrailer(sink) else { return }
            case .gzipNextMember:
                guard bitCount >= 8 || inputPosition < inputEnd else { return }
                try deliver(sink)
                resetForNextMember()
                startedAnotherMember = true
                mode = .gzipHeader(.fixed)
            case .done:
                try consumeTrailingData()
                return
            }
        }
    }

    /// After a block's last token: the next block, or the trailer after the final one.
    func endBlock() {
        guard isFinalBlock else { mode = .blockHeader; return }
        alignToByte()
        mode = format == .raw ? .done : .trailer
    }

    /// Copies stored-block bytes (RFC 1951 3.2.4): first whole bytes left in the bit buffer, then
    /// straight from the input. Returns how many are still to come.
    private func copyStored(_ remaining: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        var left = remaining
        while left > 0 && (bitCount >= 8 || inputPosition < inputEnd) {
            if outputPosition == windowCapacity { try makeRoom(sink) }
            let room = windowCapacity - outputPosition
            guard outputPosition < outputLimitPosition else { throw outputLimitError(at: currentOffset) }
            if bitCount >= 8 {
                // Whole bytes the bit reader took ahead of the block come first.
                window[outputPosition] = UInt8(truncatingIfNeeded: takeBits(8))
                outputPosition += 1
                left -= 1
                continue
            }
            let count = min(left, inputEnd - inputPosition, room, outputLimitPosition - outputPosition)
            (window + outputPosition).update(from: inputPosition, count: count)
            inputPosition += count
            examinedCount &+= count
            outputPosition += count
            left -= count
        }
        return left
    }

    /// A small piece inside a stored block (`count <= storedPieceRoom`, see ``feedPiece(_:into:)``):
    /// its bytes go straight into the window, and to `sink` once
    /// ``smallPieceDeliveryThreshold`` bytes wait, as after small pieces of a Huffman block.
    /// Returns false (nothing taken) outside a stored block, which `storedPieceRoom` rules out.
    @inline(__always)
    func copyStoredPiece(_ bytes: UnsafePointer<UInt8>, count: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard case .storedCopy(let remaining) = mode, count < remaining else {
            assertionFailure("storedPieceRoom set outside a stored block")
            storedPieceRoom = 0
            return false
        }
        // At most 7 bytes: a loop, not a call to memcpy.
        let destination = window + outputPosition
        for index in 0..<count { destination[index] = bytes[index] }
        outputPosition &+= count
        mode = .storedCopy(remaining: remaining &- count)
        storedPieceRoom &-= count
        consumedBeforeCall &+= count
        examinedCount &+= count
        if outputPosition &- deliveredPosition >= Inflater.smallPieceDeliveryThreshold {
            do {
                try deliver(sink)
            } catch let error as InflateError {
                failure = error
                storedPieceRoom = 0
                throw error
            }
        }
        return true
    }

    /// Decodes tokens until the block ends (true) or the input runs out (false): the fast loop
    /// while input and output room allow, the buffered loop on the last bytes of the input, the
    /// careful twin near the output limits and for tokens that may be errors.
    private func decodeHuffmanData(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        while true {
            if outputPosition > fastOutputLimit { try makeRoom(sink) }
            if outputPosition <= fastLoopOutputLimit {
                if inputEnd - inputPosition >= Inflater.fastInputMargin {
                    if try decodeFast() { return true }
                    continue
                }
                switch decodeBufferedTokens(outputLimit: fastLoopOutputLimit) {
                case .needInput: return false
                case .endOfBlock: return true
                case .handOver:
                    // More input at hand or the limits near: choose again. Else a token for the twin to judge.
                    if inputEnd - inputPosition >= Inflater.fastInputMargin || outputPosition > fastLoopOutputLimit { continue }
                }
            }
            switch try decodeTokenCarefully() {
            case .token: continue
            case .endOfBlock: return true
            case .needInput: return false
            }
        }
    }

    /// Builds the fixed codes of RFC 1951 3.2.6 unless the tables already hold them.
    private func loadFixedTables() {
        // Symbols 256–279 have the 7-bit codes 0000000–0010111 (RFC 1951 3.2.6).
        endOfBlockCodeword = 0
        endOfBlockLength = 7
        guard !tablesHoldFixedCodes else { return }
        // The fixed code lengths form complete codes, so building cannot fail.
        DeflateConstants.fixedLiteralLengths.withUnsafeBufferPointer { lengths in
            if let base = lengths.baseAddress {
                try? HuffmanTableBuilder.build(lengths: base, count: 288, alphabet: .literalLength, into: literalTable)
            }
        }
        DeflateConstants.fixedDistanceLengths.withUnsafeBufferPointer { lengths in
            if let base = lengths.baseAddress {
                try? HuffmanTableBuilder.build(lengths: base, count: 32, alphabet: .distance, into: distanceTable)
            }
        }
        tablesHoldFixedCodes = true
    }
}

extension CRC32 {
    /// Adds one byte (header bytes arrive one at a time).
    mutating func update(byte: UInt8) {
        withUnsafeBytes(of: byte) { update($0) }
    }
}
