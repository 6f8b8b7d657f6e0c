import Deflate
import ImageCore

extension ImageDecodingError {
    /// Translates an error of the IDAT zlib stream into the decoder's error kinds:
    /// Adler-32 → `checksumMismatch`, preset dictionary → `unsupported` (PNG 10.1 forbids it and
    /// no dictionary could be known anyway), output past the limit → `limitExceeded`, input that
    /// ended early → `truncated`, everything else → `invalidData`.
    ///
    /// `fileOffset` is the file position of the compressed byte the inflater reported.
    init(inflate error: InflateError, fileOffset: Int) {
        let kind: ImageDecodingError.Kind
        switch error.kind {
        case .checksumMismatch: kind = .checksumMismatch
        case .presetDictionaryUnsupported: kind = .unsupported
        case .outputLimitExceeded: kind = .limitExceeded
        case .truncated: kind = .truncated
        default: kind = .invalidData
        }
        self.init(kind, at: fileOffset, "PNG image data (zlib): \(error.message)")
    }
}
