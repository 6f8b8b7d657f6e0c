import Deflate
import GIFCodec
import ImageCore
import JPEGCodec
import PNGCodec
import WebPCodec

/// The one place that says which decoder benchmarks each kind of input.
enum RunnerCatalog {
    /// A runner for `kind`, or the reason the kind cannot be benchmarked yet; image runners decode
    /// with `options` and take a preview after every chunk that changed the picture when `takingPreviews`.
    /// Streams are inflated through the streaming API even when fed whole if `streaming`.
    static func runner(for kind: InputKind, options: DecodingOptions = DecodingOptions(),
                       takingPreviews: Bool = false, streaming: Bool = false) -> Result<any DecodeRunner, UnsupportedKind> {
        switch kind {
        case .zlib: return .success(InflateRunner(format: .zlib, streaming: streaming))
        case .gzip: return .success(InflateRunner(format: .gzip, streaming: streaming))
        case .raw: return .success(InflateRunner(format: .raw, streaming: streaming))
        case .png: return .success(ImageDecoderRunner(takingPreviews: takingPreviews) { PNGDecoder(options: options) })
        case .jpeg: return .success(ImageDecoderRunner(takingPreviews: takingPreviews) { JPEGDecoder(options: options) })
        case .gif: return .success(ImageDecoderRunner(takingPreviews: takingPreviews) { GIFDecoder(options: options) })
        case .webp: return .success(ImageDecoderRunner(takingPreviews: takingPreviews) { WebPDecoder(options: options) })
        }
    }

    /// Why a kind has no runner.
    struct UnsupportedKind: Error {
        let reason: String
    }
}
