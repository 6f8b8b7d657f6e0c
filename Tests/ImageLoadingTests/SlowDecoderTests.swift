import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// A decoder slower than the link: intermediate previews are skipped, the final image never is.
final class SlowDecoderTests: LoaderTestCase {
    /// TST1 decoding that takes 10 ms per feed (one feed per received chunk) and counts feeds.
    private final class SlowDecoder: IncrementalImageDecoder {
        static let feeds = LockedState(0)
        private let inner: FakeRowDecoder
        init(options: DecodingOptions) { inner = FakeRowDecoder(options: options) }
        func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
            Self.feeds.withLock { $0 += 1 }
            Thread.sleep(forTimeInterval: 0.01)
            return try inner.feed(bytes)
        }
        func finish() throws -> Image { try inner.finish() }
        var header: ImageHeader? { inner.header }
        var status: DecodingStatus { inner.status }
        func currentImage() -> Image? { inner.currentImage() }
        var inputBytesExamined: Int { inner.inputBytesExamined }
    }

    func testLaggingDecoderSkipsPreviewsButNotTheFinalImage() async throws {
        let registry = ImageDecoderRegistry([ImageDecoderFactory(formatName: "TST1", signature: FakeRowDecoder.signature) {
            SlowDecoder(options: $0)
        }])
        // Previews on every change (interval 0): only the lag can thin them out.
        let loader = ImageLoader(configuration: ImageLoader.Configuration(
            previewInterval: 0, diskCacheDirectory: nil, decoders: registry))
        // 1 MB in 32 KiB pieces every 5 ms (~0.16 s); decoding needs ~10 ms per received chunk.
        serveFake("/firehose.tst", width: 1000, height: 1000, seed: 1) { $0.chunkSize = 32 << 10; $0.pauseBetweenChunks = 0.005 }
        let record = try await collect(loader.images(for: ImageRequest(url: server.url("/firehose.tst"))), seconds: 60)
        XCTAssertTrue(record.response?.image == FakeImageFile.image(width: 1000, height: 1000, seed: 1))
        let feeds = SlowDecoder.feeds.withLock { $0 }
        XCTAssertGreaterThan(feeds, 20, "the body arrives in many chunks")
        XCTAssertGreaterThanOrEqual(record.previews.count, 1)
        XCTAssertLessThan(record.previews.count * 2, feeds, "one preview per drain, not per chunk: \(record.previews.count) for \(feeds) chunks")
    }
}
