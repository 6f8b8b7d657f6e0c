import ImageCore
import JPEGCodec
import TestSupport

/// Selections of the corpus manifest used by the progressive JPEG tests.
enum JPEGProgressiveCorpus {
    /// Progressive (SOF2, Huffman) JPEGs that must decode; arithmetic-coded ones stay out (optional).
    static func decodeEntries() throws -> [CorpusManifest.Entry] {
        try CorpusManifest.load().files.filter { entry in
            entry.isJPEG && entry.expect == "decode" && entry.isProgressive && entry.optional == nil
        }
    }

    /// Feeds `bytes` in `pieces`, calling `afterEachPiece` with the decoder after every one.
    static func feed(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions(),
                     afterEachPiece: (JPEGDecoder) -> Void = { _ in }) throws -> JPEGDecoder {
        let decoder = JPEGDecoder(options: options)
        for piece in pieces {
            try decoder.feed(piece)
            afterEachPiece(decoder)
        }
        return decoder
    }
}
