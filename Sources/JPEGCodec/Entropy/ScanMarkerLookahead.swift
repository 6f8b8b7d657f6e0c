/// How far ahead of a scan decoder's reader the buffered bytes are known to hold no marker
/// (0xFF then a non-zero byte). A decoder that may decode only once a segment's end is buffered
/// asks ``markerAhead(in:from:streamOffset:examined:)`` again after every piece of input; this
/// remembers how far the last search got, so each byte is examined once however the input is
/// chunked. Shared by the Huffman (``ScanDecoder``) and lossless (``LosslessScanDecoder``) scans.
struct ScanMarkerLookahead {
    /// Stream offset up to which the bytes ahead of the reader hold no marker.
    private(set) var markerFreeUpTo = 0

    /// The caller examined the bytes up to `offset` itself and found no marker in them.
    mutating func noteMarkerFree(upTo offset: Int) {
        markerFreeUpTo = max(markerFreeUpTo, offset)
    }

    /// Whether a marker is buffered in `bytes` (which start at stream offset `streamOffset`) at or
    /// after index `position`; the bytes looked at are added to `examined`.
    mutating func markerAhead(in bytes: UnsafeRawBufferPointer, from position: Int, streamOffset: Int,
                              examined: inout Int) -> Bool {
        var index = max(markerFreeUpTo - streamOffset, position)
        let start = index
        defer {
            examined += index - start
            markerFreeUpTo = streamOffset + index
        }
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF {
                if bytes[index + 1] != 0 { return true }
                index += 2
            } else {
                index += 1
            }
        }
        return false
    }
}
