/// Where the inflater stands between two calls: every step can stop for input and resume here.
enum InflateMode: Equatable {
    /// Reading the 2-byte zlib header (RFC 1950 2.2).
    case zlibHeader
    /// Reading a gzip member header (RFC 1952 2.3), one field at a time.
    case gzipHeader(GzipHeaderStage)
    /// Reading the 3-bit block header (RFC 1951 3.2.3).
    case blockHeader
    /// Reading LEN and NLEN of a stored block (RFC 1951 3.2.4).
    case storedHeader
    /// Copying a stored block; the bytes still to copy.
    case storedCopy(remaining: Int)
    /// Reading HLIT, HDIST, HCLEN (RFC 1951 3.2.7).
    case dynamicCounts
    /// Reading the code-length code lengths; how many are read.
    case dynamicCodeLengthLengths(read: Int)
    /// Reading the literal/length and distance code lengths; how many are read.
    case dynamicLengths(read: Int)
    /// Decoding literals and matches of a Huffman block.
    case huffmanData
    /// Reading the zlib or gzip trailer.
    case trailer
    /// After a gzip member: deciding whether another member follows.
    case gzipNextMember
    /// The stream ended; anything more is trailing data.
    case done
}

/// The fields of a gzip header, read in order (RFC 1952 2.3.1).
enum GzipHeaderStage: Equatable {
    /// ID1 ID2 CM FLG MTIME(4) XFL OS: 10 bytes.
    case fixed
    /// FEXTRA: XLEN, 2 bytes.
    case extraLength
    /// FEXTRA payload; bytes still to skip.
    case extra(remaining: Int)
    /// FNAME: zero-terminated.
    case name
    /// FCOMMENT: zero-terminated.
    case comment
    /// FHCRC: 2 bytes.
    case headerCRC
}
