extension Inflater {
    /// Checks the zlib header CMF/FLG (RFC 1950 2.2): check bits, method 8, window ≤ 32 KiB, no FDICT.
    func checkZlibHeader(_ value: UInt64) throws {
        let cmf = Int(value & 0xFF), flg = Int(value >> 8)
        let at = currentOffset - 2
        guard (cmf << 8 | flg) % 31 == 0 else {
            throw fail(.invalidHeader, "zlib header check bits are wrong: 0x\(String(cmf << 8 | flg, radix: 16)) is not a multiple of 31", at: at)
        }
        guard cmf & 0x0F == 8 else {
            throw fail(.invalidHeader, "zlib compression method is \(cmf & 0x0F), expected 8 (deflate)", at: at)
        }
        guard cmf >> 4 <= 7 else {
            throw fail(.invalidHeader, "zlib window size field is \(cmf >> 4), at most 7 (32 KiB) is allowed", at: at)
        }
        guard flg & 0x20 == 0 else {
            throw fail(.presetDictionaryUnsupported, "zlib stream needs a preset dictionary (FDICT), which is not supported", at: at + 1)
        }
    }

    /// Reads the gzip header one field at a time (RFC 1952 2.3.1). Returns false when it needs more input.
    func advanceGzipHeader(_ stage: GzipHeaderStage, startsAnotherMember: Bool) throws -> Bool {
        switch stage {
        case .fixed:
            // ID1 ID2 CM FLG MTIME(4) XFL OS; partialCount counts the bytes read so far.
            while partialCount < 10 {
                guard let byte = takeByte() else { return false }
                let index = partialCount
                partialCount += 1
                gzipHeaderCRC.update(byte: byte)
                let at = currentOffset - 1
                if (index == 0 && byte != 0x1F) || (index == 1 && byte != 0x8B) {
                    if startsAnotherMember {
                        try trailingBytesAfterMember(consumed: partialCount)
                        return true
                    }
                    throw fail(.invalidHeader, "gzip magic bytes are wrong: byte \(index) is 0x\(String(byte, radix: 16)), expected 0x\(index == 0 ? "1f" : "8b")", at: at)
                }
                if index == 2 && byte != 8 {
                    throw fail(.invalidHeader, "gzip compression method is \(byte), expected 8 (deflate)", at: at)
                }
                if index == 3 {
                    guard byte & 0xE0 == 0 else {
                        throw fail(.invalidHeader, "gzip FLG has reserved bits set (0x\(String(byte, radix: 16)))", at: at)
                    }
                    gzipFlags = byte
                }
            }
            partialCount = 0
            startedAnotherMember = false
            mode = .gzipHeader(.extraLength)
        case .extraLength:
            if gzipFlags & 0x04 != 0 {
                guard let length = takeGzipHeaderBytes(2) else { return false }
                mode = .gzipHeader(.extra(remaining: Int(length)))
            } else {
                mode = .gzipHeader(.name)
            }
        case .extra(let remaining):
            var left = remaining
            while left > 0 {
                guard let byte = takeByte() else { mode = .gzipHeader(.extra(remaining: left)); return false }
                gzipHeaderCRC.update(byte: byte)
                left -= 1
            }
            mode = .gzipHeader(.name)
        case .name, .comment:
            let flag: UInt8 = stage == .name ? 0x08 : 0x10
            if gzipFlags & flag != 0 {
                while true {
                    guard let byte = takeByte() else { return false }
                    gzipHeaderCRC.update(byte: byte)
                    if byte == 0 { break }
                }
            }
            mode = .gzipHeader(stage == .name ? .comment : .headerCRC)
        case .headerCRC:
            if gzipFlags & 0x02 != 0 {
                let expected = UInt16(truncatingIfNeeded: gzipHeaderCRC.value)
                guard let stored = takeLittleEndian(2) else { return false }
                if options.verifyChecksums && UInt16(stored) != expected {
                    throw fail(.checksumMismatch, "gzip header CRC is 0x\(String(stored, radix: 16)), the header's CRC-32 gives 0x\(String(expected, radix: 16))", at: currentOffset - 2)
                }
            }
            mode = .blockHeader
        }
        return true
    }

    /// A little-endian header field whose bytes also go into the header CRC once complete.
    private func takeGzipHeaderBytes(_ count: Int) -> UInt64? {
        guard let value = takeLittleEndian(count) else { return nil }
        for index in 0..<count { gzipHeaderCRC.update(byte: UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
        return value
    }

    /// Reads the zlib (Adler-32) or gzip (CRC-32, ISIZE) trailer. Returns false when it needs more input.
    func readTrailer(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        try deliver(sink)
        checksumDelivered()
        switch format {
        case .zlib:
            guard let value = takeLittleEndian(4) else { return false }
            let stored = UInt32(truncatingIfNeeded: value).byteSwapped   // big-endian on the wire
            if options.verifyChecksums && stored != adler.value {
                throw fail(.checksumMismatch, "Adler-32 of the output is 0x\(String(adler.value, radix: 16)), the stream says 0x\(String(stored, radix: 16))", at: currentOffset - 4)
            }
            mode = .done
        case .gzip:
            guard let value = takeLittleEndian(8) else { return false }
            let storedCRC = UInt32(truncatingIfNeeded: value), storedSize = UInt32(truncatingIfNeeded: value >> 32)
            if options.verifyChecksums && storedCRC != crc.value {
                throw fail(.checksumMismatch, "CRC-32 of the output is 0x\(String(crc.value, radix: 16)), the gzip trailer says 0x\(String(storedCRC, radix: 16))", at: currentOffset - 8)
            }
            if options.verifyChecksums && storedSize != UInt32(truncatingIfNeeded: memberOutput) {
                throw fail(.lengthMismatch, "gzip ISIZE says \(storedSize) bytes, the member produced \(memberOutput) (mod 2^32)", at: currentOffset - 4)
            }
            mode = .gzipNextMember
        case .raw:
            mode = .done
        }
        return true
    }

    /// Bytes after the end of the stream: an error, or counted and dropped.
    func consumeTrailingData() throws {
        let pending = bitCount / 8 + (inputEnd - inputPosition)
        guard pending > 0 else { return }
        if options.rejectTrailingData {
            throw fail(.trailingData, "\(pending) byte(s) follow the end of the compressed stream")
        }
        trailingByteCount += pending
        bitBuffer = 0
        bitCount = 0
        examinedCount &+= inputEnd - inputPosition
        inputPosition = inputEnd
    }

    /// What followed a gzip member is not another member: those bytes are trailing data.
    private func trailingBytesAfterMember(consumed: Int) throws {
        partialCount = 0
        mode = .done
        if options.rejectTrailingData {
            throw fail(.trailingData, "bytes after the last gzip member are not another gzip member", at: currentOffset - consumed)
        }
        trailingByteCount += consumed
    }
}
