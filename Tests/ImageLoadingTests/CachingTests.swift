import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// Memory and disk caches through the loader, and the cache policies.
final class CachingTests: LoaderTestCase {
    private let expected = FakeImageFile.image(width: 64, height: 32, seed: 7)

    /// The complete entries on disk (none if the cache folder was never even made).
    private func entryFiles() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: diskDirectory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: diskDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "img" }
    }

    func testSecondLoadIsAMemoryCacheHitWithoutRequests() async throws {
        serveFake("/m.tst", seed: 7)
        let loader = makeLoader()
        let url = server.url("/m.tst")
        _ = try await load(ImageRequest(url: url), with: loader)
        let second = try await load(ImageRequest(url: url), with: loader)
        XCTAssertEqual(second.response?.source, .memoryCache)
        XCTAssertEqual(second.order, ["completed"])
        XCTAssertTrue(second.response?.image == expected)
        XCTAssertEqual(server.requestCount(path: "/m.tst"), 1)
    }

    func testNewLoaderHitsTheDiskCache() async throws {
        serveFake("/d.tst", seed: 7)
        let url = server.url("/d.tst")
        _ = try await load(ImageRequest(url: url), with: makeLoader())
        let record = try await load(ImageRequest(url: url), with: makeLoader())
        XCTAssertEqual(record.response?.source, .diskCache)
        XCTAssertTrue(record.response?.image == expected)
        XCTAssertEqual(server.requestCount(path: "/d.tst"), 1)
    }

    private func checkDamagedEntryIsFetchedAgain(_ damage: (inout Data) -> Void) async throws {
        serveFake("/c.tst", seed: 7)
        let url = server.url("/c.tst")
        _ = try await load(ImageRequest(url: url), with: makeLoader())
        let files = try entryFiles()
        XCTAssertEqual(files.count, 1)
        var bytes = try Data(contentsOf: files[0])
        damage(&bytes)
        try bytes.write(to: files[0])
        let record = try await load(ImageRequest(url: url), with: makeLoader())
        XCTAssertEqual(record.response?.source, .network)
        XCTAssertTrue(record.response?.image == expected)
        XCTAssertEqual(server.requestCount(path: "/c.tst"), 2)
        // The fresh download replaced the damaged entry.
        let again = try await load(ImageRequest(url: url), with: makeLoader())
        XCTAssertEqual(again.response?.source, .diskCache)
    }

    func testCorruptedDiskEntryIsFetchedAgain() async throws {
        try await checkDamagedEntryIsFetchedAgain { bytes in bytes[bytes.count - 100] ^= 0x40 }
    }

    func testTruncatedDiskEntryIsFetchedAgain() async throws {
        try await checkDamagedEntryIsFetchedAgain { bytes in bytes = bytes.prefix(bytes.count / 2) }
    }

    func testDiskSweepKeepsTheSizeLimitAndTheNewestEntries() async throws {
        // Each entry: 8 + 64×32 = 2056 payload bytes + header and metadata ≈ 2.1 KB; 5 KB holds two.
        let limit = 5000
        let loader = makeLoader(diskLimit: limit)
        for index in 0..<5 {
            serveFake("/s\(index).tst", seed: index)
            _ = try await load(ImageRequest(url: server.url("/s\(index).tst")), with: loader)
            let total = try entryFiles().map { try Data(contentsOf: $0).count }.reduce(0, +)
            XCTAssertLessThanOrEqual(total, limit)
        }
        XCTAssertEqual(try entryFiles().count, 2)
        let fresh = makeLoader(diskLimit: limit)
        let newest = try await load(ImageRequest(url: server.url("/s4.tst")), with: fresh)
        XCTAssertEqual(newest.response?.source, .diskCache)
        let oldest = try await load(ImageRequest(url: server.url("/s0.tst")), with: fresh)
        XCTAssertEqual(oldest.response?.source, .network)
    }

    func testReloadIgnoringCachesFetchesAgain() async throws {
        serveFake("/r.tst", seed: 7)
        let loader = makeLoader()
        let url = server.url("/r.tst")
        _ = try await load(ImageRequest(url: url), with: loader)
        let record = try await load(ImageRequest(url: url, cachePolicy: .reloadIgnoringCaches), with: loader)
        XCTAssertEqual(record.response?.source, .network)
        XCTAssertEqual(server.requestCount(path: "/r.tst"), 2)
    }

    func testCacheOrFailFailsWithoutARequestWhenNothingIsCached() async throws {
        serveFake("/cof.tst", seed: 7)
        let loader = makeLoader()
        let url = server.url("/cof.tst")
        let miss = try await load(ImageRequest(url: url, cachePolicy: .cacheOrFail), with: loader)
        XCTAssertEqual(miss.loadingError, .notCached)
        XCTAssertTrue(server.requests.isEmpty)
        _ = try await load(ImageRequest(url: url), with: loader)
        let hit = try await load(ImageRequest(url: url, cachePolicy: .cacheOrFail), with: makeLoader())
        XCTAssertEqual(hit.response?.source, .diskCache)
    }

    func testMemoryCacheOnlyNeverTouchesTheDisk() async throws {
        serveFake("/mo.tst", seed: 7)
        let loader = makeLoader()
        let record = try await load(ImageRequest(url: server.url("/mo.tst"), cachePolicy: .memoryCacheOnly), with: loader)
        XCTAssertTrue(record.response?.image == expected)
        XCTAssertEqual(try entryFiles().count, 0)
        XCTAssertNotNil(loader.cachedImage(for: ImageRequest(url: server.url("/mo.tst"))))
    }

    func testMemoryCacheEvictsWhenOverItsByteLimit() async throws {
        // 64×32 gray = 2048 bytes per image; a 5000-byte limit keeps two.
        let loader = makeLoader(disk: false, memoryLimit: 5000)
        for index in 0..<3 {
            serveFake("/e\(index).tst", seed: index)
            _ = try await load(ImageRequest(url: server.url("/e\(index).tst")), with: loader)
        }
        XCTAssertNil(loader.cachedImage(for: ImageRequest(url: server.url("/e0.tst"))))
        XCTAssertNotNil(loader.cachedImage(for: ImageRequest(url: server.url("/e2.tst"))))
        XCTAssertEqual(loader.core.memoryCache.totalCost, 4096)
    }

    func testTransformRunsBeforeCachingAndDelivery() async throws {
        serveFake("/t.tst", seed: 7)
        let loader = makeLoader()
        let invert = ImageTransform(id: "invert") { image in
            Image(width: image.width, height: image.height, format: image.format, pixels: image.pixels.map { 255 - $0 })
        }
        let url = server.url("/t.tst")
        let record = try await load(ImageRequest(url: url, transform: invert), with: loader)
        XCTAssertEqual(record.response?.image.pixels, expected.pixels.map { 255 - $0 })
        // Another transform id is another result; the untransformed image is not in memory yet.
        XCTAssertNil(loader.cachedImage(for: ImageRequest(url: url)))
        XCTAssertEqual(loader.cachedImage(for: ImageRequest(url: url, transform: invert))?.pixels, expected.pixels.map { 255 - $0 })
        // The encoded bytes on disk serve the plain request without a new download.
        let plain = try await load(ImageRequest(url: url), with: loader)
        XCTAssertEqual(plain.response?.source, .diskCache)
        XCTAssertTrue(plain.response?.image == expected)
        XCTAssertEqual(server.requestCount(path: "/t.tst"), 1)
    }

    func testFailingTransformFailsTheLoad() async throws {
        struct Refused: Error {}
        serveFake("/tf.tst")
        let record = try await load(ImageRequest(url: server.url("/tf.tst"), transform: ImageTransform(id: "no") { _ in throw Refused() }),
                                    with: makeLoader())
        guard case .transformFailed? = record.loadingError else { return XCTFail(String(describing: record.error)) }
    }

    func testThumbnailScalesInTheDecoderThenResizesExactly() async throws {
        serveFake("/big.tst", width: 400, height: 200, seed: 5) { $0.chunkSize = 4000; $0.pauseBetweenChunks = 0.01 }
        let loader = makeLoader()
        let record = try await load(ImageRequest(url: server.url("/big.tst"), maxPixelSize: 60), with: loader)
        // 400×200 → decoder scale 1/4 (100×50, the smallest still ≥ 60) → exact 60×30.
        let quarter = try ImageSource.decode(FakeImageFile.bytes(width: 400, height: 200, seed: 5),
                                             options: DecodingOptions(scale: .quarter), registry: Self.registry)
        XCTAssertEqual(quarter.width, 100)
        let expectedThumbnail = ImageDownscaler.resize(quarter, width: 60, height: 30)
        XCTAssertTrue(record.response?.image == expectedThumbnail)
        XCTAssertFalse(record.previews.isEmpty)
        for preview in record.previews { XCTAssertEqual([preview.width, preview.height], [60, 30]) }
    }

    func testThumbnailFromTheDiskCacheMatchesTheNetworkOne() async throws {
        serveFake("/thumb.tst", width: 300, height: 120, seed: 2)
        let url = server.url("/thumb.tst")
        let network = try await load(ImageRequest(url: url, maxPixelSize: 50), with: makeLoader())
        let disk = try await load(ImageRequest(url: url, maxPixelSize: 50), with: makeLoader())
        XCTAssertEqual(disk.response?.source, .diskCache)
        XCTAssertTrue(network.response?.image == disk.response?.image)
        XCTAssertEqual(disk.response.map { [$0.image.width, $0.image.height] }, [50, 20])
    }
}
