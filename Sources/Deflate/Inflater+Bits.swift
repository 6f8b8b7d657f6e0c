extension Inflater {
    /// Moves one input byte into the bit buffer. Requires input and `bitCount <= 56`.
    @inline(__always)
    func pullByte() {
        bitBuffer |= UInt64(inputPosition.pointee) &<< UInt64(bitCount)
        bitCount &+= 8
        inputPosition += 1
        examinedCount &+= 1
    }

    /// Moves a small piece of input (`count * 8 <= 63 - bitCount`) into the bit buffer at once,
    /// counting it as consumed: the byte-at-a-time entry of ``feed(_:into:)``.
    @inline(__always)
    func pullIntoBitBuffer(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var bits = bitBuffer
        var available = UInt64(truncatingIfNeeded: bitCount)
        if count == 1 {
            bits |= UInt64(bytes.pointee) &<< available
            available &+= 8
        } else {
            for index in 0..<count {
                bits |= UInt64(bytes[index]) &<< available
                available &+= 8
            }
        }
        bitBuffer = bits
        bitCount = Int(truncatingIfNeeded: available)
        consumedBeforeCall &+= count
        examinedCount &+= count
    }

    /// Pulls input bytes until `count` bits are buffered; false if the input ran out first.
    @inline(__always)
    func needBits(_ count: Int) -> Bool {
        while bitCount < count {
            guard inputPosition < inputEnd else { return false }
            pullByte()
        }
        return true
    }

    /// Pulls as many input bytes as fit (up to 56 + 7 bits) for the careful decoder.
    @inline(__always)
    func pullAvailable() {
        while bitCount <= 56 && inputPosition < inputEnd { pullByte() }
    }

    /// Takes `count` (≤ 32) buffered bits, LSB first.
    @inline(__always)
    func takeBits(_ count: Int) -> UInt64 {
        let value = bitBuffer & ((1 &<< UInt64(count)) &- 1)
        bitBuffer &>>= UInt64(count)
        bitCount &-= count
        return value
    }

    /// Drops the bits up to the next byte boundary (stored blocks and trailers are byte-aligned).
    func alignToByte() { _ = takeBits(bitCount & 7) }

    /// Takes one byte: first from the (byte-aligned) bit buffer, then from the input.
    func takeByte() -> UInt8? {
        if bitCount >= 8 { return UInt8(truncatingIfNeeded: takeBits(8)) }
        guard inputPosition < inputEnd else { return nil }
        let byte = inputPosition.pointee
        inputPosition += 1
        examinedCount &+= 1
        return byte
    }

    /// Reads an `count`-byte little-endian field (≤ 8 bytes) that may arrive across several calls;
    /// nil until all its bytes are in.
    func takeLittleEndian(_ count: Int) -> UInt64? {
        while partialCount < count {
            guard let byte = takeByte() else { return nil }
            partialValue |= UInt64(byte) &<< UInt64(8 * partialCount)
            partialCount += 1
        }
        let value = partialValue
        partialValue = 0
        partialCount = 0
        return value
    }
}
