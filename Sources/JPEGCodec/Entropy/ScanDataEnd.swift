/// Finds where a scan's entropy-coded data ends in buffered bytes without decoding it: at the
/// first marker that is not a restart marker (T.81 B.1.1.5: inside entropy-coded data 0xFF is
/// followed by 0x00, a restart marker, fill, or the marker that ends the segment).
///
/// Used to hand a whole buffered scan to another thread: the parser can go on after its end
/// while the scan is decoded elsewhere.
enum ScanDataEnd {
    /// The marker ending the data: its fill run starts at `start` (where the marker search
    /// after the scan reports it) and its code is at `codeIndex`.
    struct Found: Equatable {
        let start: Int
        let codeIndex: Int
        let code: UInt8
    }

    /// SOF0: libjpeg's resynchronisation after a missing restart marker treats codes below it as
    /// junk to skip, and stops at anything from here on that is not a restart marker.
    static let firstValidMarker: UInt8 = 0xC0

    /// Searches `bytes` (the scan's data from its first byte); nil when the ending marker is not
    /// buffered yet, or is one below ``firstValidMarker`` (the scan is then decoded where the
    /// data is). `examined` receives how many bytes were looked at.
    static func find(in bytes: UnsafeRawBufferPointer, examined: inout Int) -> Found? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while true {
            index = nextFF(base, from: index, count: count)
            guard index < count else {
                examined += count
                return nil
            }
            var codeIndex = index + 1
            while codeIndex < count && base.load(fromByteOffset: codeIndex, as: UInt8.self) == 0xFF { codeIndex += 1 }
            guard codeIndex < count else {
                examined += count
                return nil
            }
            let code = base.load(fromByteOffset: codeIndex, as: UInt8.self)
            if code != 0 && !(JPEGMarker.rst0...JPEGMarker.rst0 + 7).contains(code) {
                examined += codeIndex + 1
                // Below SOF0 a marker is invalid (or TEM): restart resynchronisation may skip it
                // and go on decoding, and after the scan the parser stops on it, so where the data
                // ends is not known without decoding.
                return code >= Self.firstValidMarker ? Found(start: index, codeIndex: codeIndex, code: code) : nil
            }
            index = codeIndex + 1
        }
    }

    /// The index of the first 0xFF at or after `start`, or `count`. Eight bytes at a time: a byte
    /// of `~word` is zero exactly where `word` holds 0xFF (the classic has-zero-byte test).
    private static func nextFF(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int {
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let inverted = ~UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let zeroBytes = (inverted &- ones) & ~inverted & highs
            if zeroBytes != 0 { return index + zeroBytes.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count && base.load(fromByteOffset: index, as: UInt8.self) != 0xFF { index += 1 }
        return index
    }
}
