import ImageCore

/// Collects an ICC profile split over APP2 segments: "ICC_PROFILE\0", sequence number (1-based),
/// chunk count, data (ICC.1:2010 Annex B.4).
///
/// As libjpeg's `jpeg_read_icc_profile`, a set with inconsistent counts, a duplicate or missing
/// chunk, or a zero number yields no profile rather than an error.
struct ICCProfileAssembler {
    private var chunks: [Int: [UInt8]] = [:]
    private var declaredCount: Int?
    private var inconsistent = false
    /// Bytes held so far (checked against the metadata limit).
    private(set) var storedBytes = 0

    /// Whether `payload` (APP2 bytes after the length) is an ICC chunk.
    static func isICCChunk(_ payload: UnsafeRawBufferPointer) -> Bool {
        let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
        return payload.count >= 14 && payload.prefix(12).elementsEqual(signature)
    }

    /// Adds one chunk; throws `limitExceeded` when the profile would pass `limit` bytes.
    mutating func add(_ payload: UnsafeRawBufferPointer, limit: Int, at offset: Int) throws {
        let sequence = Int(payload[12]), count = Int(payload[13])
        let data = Array(payload[14...])
        guard storedBytes + data.count <= limit else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "ICC profile exceeds the metadata limit of \(limit) bytes")
        }
        if sequence == 0 || count == 0 || sequence > count || chunks[sequence] != nil
            || (declaredCount != nil && declaredCount != count) {
            inconsistent = true
        }
        declaredCount = declaredCount ?? count
        chunks[sequence] = data
        storedBytes += data.count
    }

    /// The profile once every chunk is present and consistent, else nil.
    var profile: [UInt8]? {
        guard !inconsistent, let count = declaredCount, chunks.count == count else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(storedBytes)
        for sequence in 1...count {
            guard let chunk = chunks[sequence] else { return nil }
            bytes += chunk
        }
        return bytes
    }
}
