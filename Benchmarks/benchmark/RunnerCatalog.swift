import Deflate
import ImageCore
import JPEGCodec
import PNGCodec

/// The one place that says which decoder benchmarks each kind of input.
enum RunnerCatalog {
    /// A runner for `kind`, or the reason the kind cannot be benchmarked yet.
    static func runner(for kind: InputKind) -> Result<any DecodeRunner, UnsupportedKind> {
        switch kind {
        case .zlib: return .success(InflateRunner(format: .zlib))
        case .gzip: return .success(InflateRunner(format: .gzip))
        case .raw: return .success(InflateRunner(format: .raw))
        case .png: return .success(ImageDecoderRunner { PNGDecoder(options: DecodingOptions()) })
        case .jpeg: return .success(ImageDecoderRunner { JPEGDecoder(options: DecodingOptions()) })
        }
    }

    /// Why a kind has no runner.
    struct UnsupportedKind: Error {
        let reason: String
    }
}
