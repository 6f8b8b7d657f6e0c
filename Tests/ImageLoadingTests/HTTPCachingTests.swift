import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// HTTP caching (RFC 9111) through a scripted network: what is stored, when it is fresh, how a
/// stale entry is revalidated, and ``ImageCachePolicy/refreshCached``. Each "new loader" shares
/// the disk folder but not the memory cache, like an app started again.
final class HTTPCachingTests: LoaderTestCase {
    private let url = URL(string: "http://images.test/avatar.tst")!
    private let first = FakeImageFile.bytes(width: 16, height: 16, seed: 1)
    private let second = FakeImageFile.bytes(width: 16, height: 16, seed: 2)

    private func loader(_ network: ScriptedDataLoader, defaultMaxAge: TimeInterval? = nil) -> ImageLoader {
        makeLoader { configuration in
            configuration.dataLoader = network
            configuration.defaultMaxAge = defaultMaxAge
        }
    }

    private static let now = HTTPDate.format(Date())

    /// Loads `url` with a new loader, answering its first request with `serve` (if one is made).
    private func loadAgain(_ network: ScriptedDataLoader, request: ImageRequest? = nil,
                           serve: ((ScriptedDataLoader.Transfer) -> Void)? = nil) async throws -> LoadRecord {
        let before = network.started.count
        let fresh = loader(network)
        let task = fresh.task(for: request ?? ImageRequest(url: url))
        if let serve { serve(try await network.transfer(before)) }
        let record = try await collect(task.events)
        withExtendedLifetime(fresh) {}
        return record
    }

    func testAFreshEntryIsServedFromDiskWithoutARequest() async throws {
        let network = ScriptedDataLoader()
        let firstLoad = try await loadAgain(network) { $0.serve(self.first, headers: ["Cache-Control": "max-age=600", "ETag": "\"v1\""]) }
        XCTAssertEqual(firstLoad.response?.source, .network)
        XCTAssertEqual(firstLoad.response?.httpStatus, 200)
        XCTAssertEqual(firstLoad.response?.headers["etag"], "\"v1\"")
        let again = try await loadAgain(network)
        XCTAssertEqual(again.response?.source, .diskCache)
        XCTAssertNil(again.response?.httpStatus)
        XCTAssertTrue(again.response?.image == FakeImageFile.image(width: 16, height: 16, seed: 1))
        XCTAssertEqual(network.started.count, 1)
    }

    func testAStaleEntryIsRevalidatedAnd304ServesTheCachedBytesAndRefreshesFreshness() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\"",
                                                                         "Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT"]) }
        let revalidated = try await loadAgain(network) { transfer in
            XCTAssertEqual(transfer.header("If-None-Match"), "\"v1\"")
            XCTAssertEqual(transfer.header("If-Modified-Since"), "Mon, 02 Nov 2026 10:00:00 GMT")
            transfer.respond(status: 304, headers: ["Cache-Control": "max-age=600", "ETag": "\"v1\""])
        }
        XCTAssertEqual(revalidated.response?.source, .revalidated)
        XCTAssertEqual(revalidated.response?.httpStatus, 304)
        XCTAssertTrue(revalidated.response?.image == FakeImageFile.image(width: 16, height: 16, seed: 1))
        // The 304's max-age now applies: the next load asks nothing.
        let fresh = try await loadAgain(network)
        XCTAssertEqual(fresh.response?.source, .diskCache)
        XCTAssertEqual(network.started.count, 2)
    }

    func testAChangedImageReplacesTheStaleEntry() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["Cache-Control": "no-cache", "ETag": "\"v1\""]) }
        let changed = try await loadAgain(network) { $0.serve(self.second, headers: ["Cache-Control": "max-age=600", "ETag": "\"v2\""]) }
        XCTAssertEqual(changed.response?.source, .network)
        XCTAssertTrue(changed.response?.image == FakeImageFile.image(width: 16, height: 16, seed: 2))
        let cached = try await loadAgain(network)
        XCTAssertTrue(cached.response?.image == FakeImageFile.image(width: 16, height: 16, seed: 2))
        XCTAssertEqual(cached.response?.source, .diskCache)
    }

    func testNoStoreIsNeverWrittenToDisk() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["Cache-Control": "no-store"]) }
        XCTAssertEqual(DiskCache(directory: diskDirectory, sizeLimit: 1 << 30).totalSize, 0)
        let again = try await loadAgain(network) { $0.serve(self.first) }
        XCTAssertEqual(again.response?.source, .network)
        XCTAssertEqual(network.started.count, 2)
    }

    func testAnExpiresInThePastMeansStale() async throws {
        let network = ScriptedDataLoader()
        let date = Date()
        _ = try await loadAgain(network) {
            $0.serve(self.first, headers: ["Date": HTTPDate.format(date), "Expires": HTTPDate.format(date.addingTimeInterval(-60)),
                                           "ETag": "\"e\""])
        }
        let again = try await loadAgain(network) { $0.respond(status: 304) }
        XCTAssertEqual(again.response?.source, .revalidated)
    }

    func testAnExpiresInTheFutureMeansFresh() async throws {
        let network = ScriptedDataLoader()
        let date = Date()
        _ = try await loadAgain(network) {
            $0.serve(self.first, headers: ["Date": HTTPDate.format(date), "Expires": HTTPDate.format(date.addingTimeInterval(3600))])
        }
        let observed = try await loadAgain(network).response?.source
        XCTAssertEqual(observed, .diskCache)
    }

    func testLastModifiedGivesTheHeuristicTenthOfItsAge() async throws {
        let network = ScriptedDataLoader()
        let date = Date()
        // Modified 10 days ago: fresh for a day (RFC 9111 4.2.2).
        _ = try await loadAgain(network) {
            $0.serve(self.first, headers: ["Date": HTTPDate.format(date),
                                           "Last-Modified": HTTPDate.format(date.addingTimeInterval(-10 * 86_400))])
        }
        let observed = try await loadAgain(network).response?.source
        XCTAssertEqual(observed, .diskCache)
        XCTAssertEqual(network.started.count, 1)
    }

    func testAnETagWithoutFreshnessIsRevalidatedEveryTime() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["ETag": "\"only\""]) }
        let again = try await loadAgain(network) { transfer in
            XCTAssertEqual(transfer.header("If-None-Match"), "\"only\"")
            transfer.respond(status: 304)
        }
        XCTAssertEqual(again.response?.source, .revalidated)
    }

    func testWithoutValidatorsOrFreshnessAnEntryStaysUntilEvictedUnlessDefaultMaxAgeSaysOtherwise() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first) }
        let observed = try await loadAgain(network).response?.source
        XCTAssertEqual(observed, .diskCache)
        // With a default max age of 0 the same entry is stale, and without validators it is fetched whole.
        let strict = loader(network, defaultMaxAge: 0)
        let task = strict.task(for: ImageRequest(url: url))
        let transfer = try await network.transfer(1)
        XCTAssertNil(transfer.header("If-None-Match"))
        transfer.serve(second)
        let record = try await collect(task.events)
        XCTAssertEqual(record.response?.source, .network)
    }

    func testTheMemoryCacheHonoursExpiryToo() async throws {
        let network = ScriptedDataLoader()
        let shared = loader(network)
        let firstTask = shared.task(for: ImageRequest(url: url))
        try await network.transfer(0).serve(first, headers: ["Cache-Control": "max-age=0", "ETag": "\"m\""])
        _ = try await collect(firstTask.events)
        let secondTask = shared.task(for: ImageRequest(url: url))
        let transfer = try await network.transfer(1)
        XCTAssertEqual(transfer.header("If-None-Match"), "\"m\"")
        transfer.respond(status: 304, headers: ["Cache-Control": "max-age=600"])
        let record = try await collect(secondTask.events)
        XCTAssertEqual(record.response?.source, .revalidated)
        let observed = try await collect(shared.task(for: ImageRequest(url: url)).events).response?.source
        XCTAssertEqual(observed, .memoryCache)
    }

    func testRefreshCachedDeliversTheCachedImageThenNothingWhenTheServerConfirmsIt() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["Cache-Control": "max-age=600", "ETag": "\"a\""]) }
        let refreshing = loader(network)
        defer { withExtendedLifetime(refreshing) {} }
        let task = refreshing.task(for: ImageRequest(url: url, cachePolicy: .refreshCached))
        let transfer = try await network.transfer(1)
        XCTAssertEqual(transfer.header("If-None-Match"), "\"a\"", "revalidated although fresh")
        transfer.respond(status: 304)
        let record = try await collect(task.events)
        XCTAssertEqual(record.order.filter { $0 == "completed" }.count, 1)
        XCTAssertEqual(record.response?.source, .diskCache)
        XCTAssertNil(record.error)
    }

    func testRefreshCachedDeliversASecondImageWhenTheServerHasANewOne() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["ETag": "\"a\""]) }
        var completions: [ImageResponse] = []
        let refreshing = loader(network)
        defer { withExtendedLifetime(refreshing) {} }
        let task = refreshing.task(for: ImageRequest(url: url, cachePolicy: .refreshCached))
        let transfer = try await network.transfer(1)
        transfer.serve(second, headers: ["ETag": "\"b\""])
        for try await event in task.events { if case .completed(let response) = event { completions.append(response) } }
        XCTAssertEqual(completions.map(\.source), [.diskCache, .network])
        XCTAssertTrue(completions.first?.image == FakeImageFile.image(width: 16, height: 16, seed: 1))
        XCTAssertTrue(completions.last?.image == FakeImageFile.image(width: 16, height: 16, seed: 2))
    }

    func testRefreshCachedAnswersFromMemoryAtOnceAndIgnoresTheSameBytesAgain() async throws {
        let network = ScriptedDataLoader()
        let shared = loader(network)
        let firstTask = shared.task(for: ImageRequest(url: url))
        try await network.transfer(0).serve(first)
        _ = try await collect(firstTask.events)
        let task = shared.task(for: ImageRequest(url: url, cachePolicy: .refreshCached))
        // Without validators the whole image comes again; it is the same, so nothing more is delivered.
        try await network.transfer(1).serve(first)
        let record = try await collect(task.events)
        XCTAssertEqual(record.order, ["completed"])
        XCTAssertEqual(record.response?.source, .memoryCache)
    }

    func testACustomCacheKeySharesTheEntryAcrossSignedURLs() async throws {
        let network = ScriptedDataLoader()
        let signedA = ImageRequest(url: URL(string: "http://images.test/p.tst?sig=aaa")!, cacheKey: "photo-p")
        let signedB = ImageRequest(url: URL(string: "http://images.test/p.tst?sig=bbb")!, cacheKey: "photo-p")
        _ = try await loadAgain(network, request: signedA) { $0.serve(self.first) }
        let again = try await loadAgain(network, request: signedB)
        XCTAssertEqual(again.response?.source, .diskCache)
        XCTAssertEqual(network.started.count, 1)
    }

    func testRemoveCachedImageForgetsMemoryAndDisk() async throws {
        let network = ScriptedDataLoader()
        let shared = loader(network)
        let request = ImageRequest(url: url)
        let firstTask = shared.task(for: request)
        try await network.transfer(0).serve(first, headers: ["Cache-Control": "max-age=600"])
        _ = try await collect(firstTask.events)
        XCTAssertNotNil(shared.cachedImage(for: request))
        shared.removeCachedImage(for: ImageRequest(url: url, maxPixelSize: 4))  // any variant names the resource
        XCTAssertNil(shared.cachedImage(for: request))
        let again = try await loadAgain(network) { $0.serve(self.second) }
        XCTAssertEqual(again.response?.source, .network)
    }

    func testDiskCacheMaxAgeDropsOldEntries() async throws {
        let network = ScriptedDataLoader()
        _ = try await loadAgain(network) { $0.serve(self.first, headers: ["Cache-Control": "max-age=600"]) }
        let strict = makeLoader { configuration in
            configuration.dataLoader = network
            configuration.diskCacheMaxAge = 0
        }
        let task = strict.task(for: ImageRequest(url: url))
        try await network.transfer(1).serve(second)
        let observed = try await collect(task.events).response?.source
        XCTAssertEqual(observed, .network)
    }

    func testMemoryCacheCountLimitEvictsTheOldest() async throws {
        let network = ScriptedDataLoader()
        let limited = makeLoader(disk: false) { configuration in
            configuration.dataLoader = network
            configuration.memoryCacheCountLimit = 1
        }
        for index in 0..<2 {
            let task = limited.task(for: ImageRequest(url: URL(string: "http://images.test/\(index).tst")!))
            try await network.transfer(index).serve(FakeImageFile.bytes(width: 4, height: 4, seed: index))
            _ = try await collect(task.events)
        }
        XCTAssertEqual(limited.core.memoryCache.count, 1)
        XCTAssertNil(limited.cachedImage(for: ImageRequest(url: URL(string: "http://images.test/0.tst")!)))
        XCTAssertNotNil(limited.cachedImage(for: ImageRequest(url: URL(string: "http://images.test/1.tst")!)))
    }

    func testCacheControlParsing() {
        let control = CacheControl("public, max-age=\"60\", no-cache, must-revalidate, immutable, private")
        XCTAssertEqual(control.maxAge, 60)
        XCTAssertTrue(control.noCache && control.mustRevalidate && control.immutable)
        XCTAssertFalse(control.noStore)
        XCTAssertEqual(CacheControl("max-age=banana").maxAge, 0, "a malformed max-age is stale")
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970, 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")?.timeIntervalSince1970, 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994")?.timeIntervalSince1970, 784_111_777)
        // The hand parser agrees with the formatter across leap years and century rules.
        for seconds in stride(from: -2_208_988_800.0, to: 4_102_444_800, by: 7_777_777.7) {
            let date = Date(timeIntervalSince1970: seconds.rounded(.down))
            XCTAssertEqual(HTTPDate.parseIMFFixdate(HTTPDate.format(date)), date, HTTPDate.format(date))
        }
        XCTAssertNil(HTTPDate.parse("0"))
        XCTAssertNil(HTTPDate.parseIMFFixdate("Sun, 06 Xyz 1994 08:49:37 GMT"))
    }

    func testCurrentAgeFollowsRFC9111() {
        let request = Date(timeIntervalSince1970: 1_000)
        let response = Date(timeIntervalSince1970: 1_002)
        // Generated at 990, Age 5 on arrival, 2 s response delay: corrected initial age max(12, 7) = 12.
        let info = CachedResponseInfo(status: 200, headers: ["date": HTTPDate.format(Date(timeIntervalSince1970: 990)),
                                                             "age": "5", "cache-control": "max-age=20"],
                                      requestTime: request, responseTime: response)
        XCTAssertEqual(info.currentAge(now: Date(timeIntervalSince1970: 1_006)), 16)
        XCTAssertTrue(info.isFresh(now: Date(timeIntervalSince1970: 1_009), defaultMaxAge: nil))
        XCTAssertFalse(info.isFresh(now: Date(timeIntervalSince1970: 1_010), defaultMaxAge: nil))
    }
}
