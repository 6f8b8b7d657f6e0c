import Deflate
import ImageCore

/// Inflates the zlib data of iCCP, zTXt and compressed iTXt chunks (PNG 10.3) with a size cap.
enum CompressedText {
    /// The inflated bytes; throws `limitExceeded` past `limit` output bytes and `InflateError`
    /// for bad data (which callers treat as a damaged ancillary chunk).
    static func inflate(_ data: UnsafeRawBufferPointer, limit: Int, verifyChecksums: Bool,
                        at offset: Int, chunk: ChunkType) throws -> [UInt8] {
        let inflater = Inflater(format: .zlib, options: InflateOptions(verifyChecksums: verifyChecksums,
                                                                       maxOutputBytes: max(limit, 0)))
        var output: [UInt8] = []
        do {
            try inflater.feed(data) { output.append(contentsOf: $0) }
            try inflater.finish()
        } catch let error as InflateError where error.kind == .outputLimitExceeded {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "PNG \(chunk) inflates to more than the \(limit) metadata bytes still allowed")
        }
        return output
    }
}
