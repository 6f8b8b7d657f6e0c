import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// Retries of transient failures and the resume rules, through a scripted network: what each
/// attempt asks for, and that a stale or unusable partial never breaks a URL.
final class RetryAndResumeTests: LoaderTestCase {
    private let url = URL(string: "http://images.test/big.tst")!
    private let bytes = FakeImageFile.bytes(width: 100, height: 100, seed: 7)
    private var image: Image { FakeImageFile.image(width: 100, height: 100, seed: 7) }
    private static let quickRetries = RetryPolicy(maximumRetries: 2, baseDelay: 0.01, maximumDelay: 0.05)

    private func loader(_ network: ScriptedDataLoader, retry: RetryPolicy = quickRetries, disk: Bool = true) -> ImageLoader {
        makeLoader(disk: disk, retryPolicy: retry) { $0.dataLoader = network }
    }

    func testA503WithRetryAfterIsRetriedAndTheURLIsNotRememberedAsFailed() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let task = loader.task(for: ImageRequest(url: url))
        try await network.transfer(0).respond(status: 503, headers: ["Retry-After": "0"])
        try await network.transfer(1).serve(bytes)
        let record = try await collect(task.events)
        XCTAssertTrue(record.response?.image == image)
        XCTAssertNil(loader.core.failures.failure(for: url))
    }

    func testRetriesAreSpentThenTheURLIsRemembered() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let task = loader.task(for: ImageRequest(url: url))
        for index in 0..<3 { try await network.transfer(index).respond(status: 502) }
        let record = try await collect(task.events)
        XCTAssertEqual(record.loadingError, .httpStatus(502))
        XCTAssertEqual(network.started.count, 3, "the first attempt and two retries")
        XCTAssertEqual(loader.core.failures.failure(for: url), .httpStatus(502))
    }

    func testAClientErrorIsNotRetried() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let task = loader.task(for: ImageRequest(url: url))
        try await network.transfer(0).respond(status: 404)
        let outcome = try await collect(task.events)
        XCTAssertEqual(outcome.loadingError, .httpStatus(404))
        XCTAssertEqual(network.started.count, 1)
    }

    func testRetryAfterIsHonouredUpToTheMaximumDelay() {
        let policy = RetryPolicy(maximumRetries: 3, baseDelay: 0.5, maximumDelay: 10)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: nil), 0.5)
        XCTAssertEqual(policy.delay(beforeRetry: 3, retryAfter: nil), 2)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: "3"), 3)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: "120"), 10)
        let now = Date(timeIntervalSince1970: 1_000_000)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: HTTPDate.format(now.addingTimeInterval(4)), now: now), 4)
        XCTAssertTrue(policy.isRetryable(.httpStatus(429)) && policy.isRetryable(.timedOut))
        XCTAssertTrue(policy.isRetryable(.network(code: URLError.networkConnectionLost.rawValue, message: "")))
        XCTAssertFalse(policy.isRetryable(.httpStatus(403)) || policy.isRetryable(.notCached))
    }

    func testADropIsResumedWithRangeAndTheDecoderGoesOn() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let task = loader.task(for: ImageRequest(url: url))
        let firstAttempt = try await network.transfer(0)
        firstAttempt.respond(headers: ["Content-Length": String(bytes.count), "ETag": "\"r1\"", "Accept-Ranges": "bytes"])
        firstAttempt.send(bytes.prefix(4000))
        firstAttempt.fail(.networkConnectionLost)
        let resumed = try await network.transfer(1)
        XCTAssertEqual(resumed.header("Range"), "bytes=4000-")
        XCTAssertEqual(resumed.header("If-Range"), "\"r1\"")
        resumed.respond(status: 206, headers: ["Content-Range": "bytes 4000-\(bytes.count - 1)/\(bytes.count)",
                                               "ETag": "\"r1\""])
        resumed.send(bytes.dropFirst(4000))
        resumed.finish()
        let record = try await collect(task.events)
        XCTAssertTrue(record.response?.image == image)
        XCTAssertEqual(record.response?.httpStatus, 206)
        let received = record.progress.map(\.received)
        XCTAssertEqual(received, received.sorted(), "no byte was decoded twice")
        XCTAssertEqual(received.last, bytes.count)
    }

    func testADropWithoutValidatorsStartsOverAndStillDeliversTheExactImage() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let task = loader.task(for: ImageRequest(url: url))
        let firstAttempt = try await network.transfer(0)
        firstAttempt.respond()
        firstAttempt.send(bytes.prefix(3000))
        firstAttempt.fail(.timedOut)
        let again = try await network.transfer(1)
        XCTAssertNil(again.header("Range"))
        again.serve(bytes)
        let outcome = try await collect(task.events)
        XCTAssertTrue(outcome.response?.image == image)
    }

    func testAStalePartialAnswered416IsDroppedAndTheWholeBodyFetched() async throws {
        let network = ScriptedDataLoader()
        // A first load breaks off (no retries) and leaves a partial entry on disk.
        let breaking = loader(network, retry: .never)
        let broken = breaking.task(for: ImageRequest(url: url))
        let cut = try await network.transfer(0)
        cut.respond(headers: ["Content-Length": String(bytes.count + 500), "ETag": "\"s\"", "Accept-Ranges": "bytes"])
        cut.send(bytes)
        cut.fail(.networkConnectionLost)
        let outcome = try await collect(broken.events)
        XCTAssertNotNil(outcome.error)
        XCTAssertNotNil(DiskCache(directory: diskDirectory, sizeLimit: 1 << 30).read(key: "data " + url.absoluteString, kind: .partial))
        // Any new loader on the folder: the resume gets 416, the partial goes, the whole body comes.
        let fresh = loader(network, retry: .never)
        let task = fresh.task(for: ImageRequest(url: url, retryFailed: true))
        let resume = try await network.transfer(1)
        XCTAssertEqual(resume.header("Range"), "bytes=\(bytes.count)-")
        resume.respond(status: 416, headers: ["Content-Range": "bytes */\(bytes.count)"])
        let whole = try await network.transfer(2)
        XCTAssertNil(whole.header("Range"))
        whole.serve(bytes, headers: ["ETag": "\"s\""])
        let completed = try await collect(task.events)
        XCTAssertTrue(completed.response?.image == image)
        XCTAssertNil(DiskCache(directory: diskDirectory, sizeLimit: 1 << 30).read(key: "data " + url.absoluteString, kind: .partial))
    }

    func testAContentCodedResponseIsNeverResumedNorKeptAsPartial() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let task = loader.task(for: ImageRequest(url: url))
        let gzip = try await network.transfer(0)
        gzip.respond(headers: ["Content-Encoding": "gzip", "Content-Length": "1234", "ETag": "\"g\"", "Accept-Ranges": "bytes"])
        gzip.send(bytes.prefix(2000))  // decoded bytes, as URLSession delivers them
        gzip.fail(.networkConnectionLost)
        let retry = try await network.transfer(1)
        XCTAssertNil(retry.header("Range"), "decoded offsets are not the server's")
        XCTAssertNil(DiskCache(directory: diskDirectory, sizeLimit: 1 << 30).read(key: "data " + url.absoluteString, kind: .partial))
        retry.serve(bytes)
        let record = try await collect(task.events)
        XCTAssertTrue(record.response?.image == image)
        // The gzip response's Content-Length (1234) counts encoded bytes: no progress may report
        // it. (Not "the first progress has none": pending progress events are coalesced, so the
        // first one seen may already be the plain retry's, whose length is the image's.)
        XCTAssertFalse(record.progress.contains { $0.expected == 1234 }, "the encoded length is not the image's: \(record.progress)")
        XCTAssertTrue(record.progress.allSatisfy { $0.expected == nil || $0.expected == bytes.count })
    }

    func testAResumeAnsweredWithTheWholeFileStartsTheDecoderOver() async throws {
        let network = ScriptedDataLoader()
        let loader = loader(network)
        let changed = FakeImageFile.bytes(width: 100, height: 100, seed: 8)
        let task = loader.task(for: ImageRequest(url: url))
        let firstAttempt = try await network.transfer(0)
        firstAttempt.respond(headers: ["ETag": "\"old\"", "Accept-Ranges": "bytes"])
        firstAttempt.send(bytes.prefix(5000))
        firstAttempt.fail()
        // The file changed meanwhile: If-Range fails and the server sends the new file whole.
        try await network.transfer(1).serve(changed, headers: ["ETag": "\"new\""])
        let outcome = try await collect(task.events)
        XCTAssertTrue(outcome.response?.image == FakeImageFile.image(width: 100, height: 100, seed: 8))
    }
}
