import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// HTTP errors, broken transfers, resuming them, limits and remembered failures.
final class FailureAndResumeTests: LoaderTestCase {
    func testNotFoundGivesTheStatusAndNoImage() async throws {
        let record = try await load(ImageRequest(url: server.url("/missing.tst")), with: makeLoader())
        XCTAssertEqual(record.loadingError, .httpStatus(404))
        XCTAssertNil(record.response)
        XCTAssertTrue(record.previews.isEmpty)
        await eventually("the server saw the request end") { self.server.requests.first?.outcome != .inProgress }
        XCTAssertEqual(server.requests.map(\.status), [404])
    }

    func testServerErrorGivesTheStatusAndNoImage() async throws {
        server.setRoute("/broken.tst", .failure(500))
        let record = try await load(ImageRequest(url: server.url("/broken.tst")), with: makeLoader())
        XCTAssertEqual(record.loadingError, .httpStatus(500))
        XCTAssertNil(record.response)
        XCTAssertTrue(record.previews.isEmpty)
    }

    func testFailedURLIsRememberedUntilARetryIsAskedFor() async throws {
        server.setRoute("/flaky.tst", .failure(503))
        let loader = makeLoader()
        let url = server.url("/flaky.tst")
        let first = try await load(ImageRequest(url: url), with: loader)
        XCTAssertEqual(first.loadingError, .httpStatus(503))
        let second = try await load(ImageRequest(url: url), with: loader)
        XCTAssertEqual(second.loadingError, .previouslyFailed(.httpStatus(503)))
        XCTAssertEqual(server.requestCount(path: "/flaky.tst"), 1, "no refetch storm")
        serveFake("/flaky.tst", seed: 6)
        let retry = try await load(ImageRequest(url: url, retryFailed: true), with: loader)
        XCTAssertEqual(retry.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 6))
        XCTAssertEqual(server.requestCount(path: "/flaky.tst"), 2)
    }

    func testUndecodableBodyGivesADecodingError() async throws {
        server.setRoute("/page.html", HTTPRoute(body: Array("<html><body>not an image</body></html>".utf8)))
        let record = try await load(ImageRequest(url: server.url("/page.html")), with: makeLoader())
        guard case .decoding(let error)? = record.loadingError else { return XCTFail("\(String(describing: record.error))") }
        XCTAssertEqual(error.kind, .unsupported)
        XCTAssertTrue(error.message.contains("3C 68 74 6D 6C"), error.message)
    }

    func testTruncatedBodyGivesATruncatedError() async throws {
        let bytes = FakeImageFile.bytes(width: 10, height: 10)
        server.setRoute("/short.tst", HTTPRoute(body: Array(bytes[0..<50])))
        let record = try await load(ImageRequest(url: server.url("/short.tst")), with: makeLoader())
        guard case .decoding(let error)? = record.loadingError else { return XCTFail("\(String(describing: record.error))") }
        XCTAssertEqual(error.kind, .truncated)
        XCTAssertEqual(error.offset, 50)
    }

    func testBodyOverTheLimitIsRefusedFromContentLength() async throws {
        serveFake("/big.tst", width: 100, height: 100)
        let record = try await load(ImageRequest(url: server.url("/big.tst")), with: makeLoader(maximumBodySize: 5000))
        XCTAssertEqual(record.loadingError, .bodyTooLarge(limit: 5000))
    }

    func testBodyOverTheLimitIsStoppedWhileStreamingWithoutLength() async throws {
        serveFake("/big-chunked.tst", width: 100, height: 100) { route in
            route.chunkedEncoding = true
            route.chunkSize = 1000
            route.pauseBetweenChunks = 0.01  // so the server is still sending when the client gives up
        }
        let record = try await load(ImageRequest(url: server.url("/big-chunked.tst")), with: makeLoader(maximumBodySize: 5000))
        XCTAssertEqual(record.loadingError, .bodyTooLarge(limit: 5000))
        await eventually("the server saw the client go") { self.server.clientClosedCount(path: "/big-chunked.tst") == 1 }
    }

    func testSilentServerTimesOut() async throws {
        serveFake("/silent.tst") { $0.initialDelay = 3 }
        let started = Date()
        let record = try await load(ImageRequest(url: server.url("/silent.tst")), with: makeLoader(idleTimeout: 0.3))
        XCTAssertEqual(record.loadingError, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testStallMidBodyTimesOutWithTheLastPreview() async throws {
        serveFake("/stall.tst", width: 100, height: 50) { $0.chunkSize = 1000; $0.pauses = [2000: 3] }
        let record = try await load(ImageRequest(url: server.url("/stall.tst")), with: makeLoader(idleTimeout: 0.3))
        XCTAssertEqual(record.loadingError, .timedOut)
        // 2000 bytes = 8 header + 19 whole rows of 100 + 92 samples of row 20: 19 rows are shown.
        let preview = try XCTUnwrap(record.previews.last)
        XCTAssertTrue(preview.pixels.prefix(1900) == FakeImageFile.image(width: 100, height: 50).pixels.prefix(1900))
        XCTAssertTrue(preview.pixels.dropFirst(1900).allSatisfy { $0 == 0 })
    }

    /// Drops `/drop.tst` after `dropAfter` body bytes once; the second request must resume.
    private func checkDropThenResume(etag: String?, lastModified: String?) async throws {
        let dropAfter = 3000
        let bytes = serveFake("/drop.tst", width: 100, height: 50, seed: 5) { route in
            route.chunkSize = 500
            route.pauses = [1000: 0.1, 2500: 0.1]
            route.dropAfterBytes = dropAfter
            route.etag = etag
            route.lastModified = lastModified
            route.acceptsRanges = true
        }
        let loader = makeLoader()
        let url = server.url("/drop.tst")
        let first = try await load(ImageRequest(url: url), with: loader)
        guard case .network? = first.loadingError else { return XCTFail("expected a network error, got \(String(describing: first.error))") }
        XCTAssertNil(first.response)
        let lastPreview = try XCTUnwrap(first.previews.last)
        let final = FakeImageFile.image(width: 100, height: 50, seed: 5)
        // The pause at 2500 bytes leaves 24 whole rows (8 + 2400 bytes) on screen for 0.1 s.
        XCTAssertTrue(lastPreview.pixels.prefix(2400) == final.pixels.prefix(2400), "rows received before the pause are shown")

        let retry = try await load(ImageRequest(url: url, retryFailed: true), with: loader)
        XCTAssertEqual(retry.response?.image, final)
        XCTAssertEqual(retry.progress.last?.received, bytes.count)
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests[0].headers["range"])
        XCTAssertEqual(requests[1].headers["range"], "bytes=\(dropAfter)-")
        XCTAssertEqual(requests[1].headers["if-range"], etag ?? lastModified)
        XCTAssertEqual(requests[1].status, 206)
        let disk = DiskCache(directory: diskDirectory, sizeLimit: 1 << 30)
        XCTAssertNil(disk.read(key: "data " + url.absoluteString, kind: .partial), "the partial entry is gone once the file is cached")
        XCTAssertEqual(disk.read(key: "data " + url.absoluteString, kind: .complete)?.payload, Data(bytes))
    }

    func testDropMidBodyThenRetryResumesWithETag() async throws {
        try await checkDropThenResume(etag: "\"v1\"", lastModified: nil)
    }

    func testDropMidBodyThenRetryResumesWithLastModified() async throws {
        try await checkDropThenResume(etag: nil, lastModified: "Tue, 15 Nov 1994 12:45:26 GMT")
    }

    func testResumeRestartsCleanlyWhenTheFileChanged() async throws {
        serveFake("/changing.tst", width: 100, height: 50, seed: 1) { route in
            route.dropAfterBytes = 2000
            route.etag = "\"old\""
            route.acceptsRanges = true
        }
        let loader = makeLoader()
        let url = server.url("/changing.tst")
        let first = try await load(ImageRequest(url: url), with: loader)
        XCTAssertNotNil(first.error)
        serveFake("/changing.tst", width: 80, height: 40, seed: 9) { route in
            route.etag = "\"new\""
            route.acceptsRanges = true
        }
        let retry = try await load(ImageRequest(url: url, retryFailed: true), with: loader)
        XCTAssertEqual(retry.response?.image, FakeImageFile.image(width: 80, height: 40, seed: 9))
        XCTAssertEqual(server.requests.map(\.status), [200, 200])
        XCTAssertEqual(server.requests.last?.headers["if-range"], "\"old\"")
    }

    func testDropWithoutValidatorsRetriesFromTheStart() async throws {
        serveFake("/plain-drop.tst", width: 100, height: 50, seed: 2) { $0.dropAfterBytes = 2000 }
        let loader = makeLoader()
        let url = server.url("/plain-drop.tst")
        _ = try await load(ImageRequest(url: url), with: loader)
        let retry = try await load(ImageRequest(url: url, retryFailed: true), with: loader)
        XCTAssertEqual(retry.response?.image, FakeImageFile.image(width: 100, height: 50, seed: 2))
        XCTAssertNil(server.requests.last?.headers["range"])
    }

    func testUnsupportedSchemeFailsAtOnce() async throws {
        let record = try await load(ImageRequest(url: URL(string: "ftp://127.0.0.1/a.png")!), with: makeLoader())
        XCTAssertEqual(record.loadingError, .unsupportedURL("ftp://127.0.0.1/a.png"))
        XCTAssertTrue(server.requests.isEmpty)
    }
}
