import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// Download slots, priorities and prefetching.
final class SchedulingTests: LoaderTestCase {
    /// Occupies the only slot with `/blocker.tst` (held 0.8 s by the server), then queues
    /// `paths` with their priorities; returns the tasks once every request has been made.
    private func queueBehindBlocker(_ loader: ImageLoader,
                                    _ paths: [(String, ImagePriority)]) async throws -> [ImageLoadTask] {
        serveFake("/blocker.tst") { $0.initialDelay = 0.8 }
        for (index, (path, _)) in paths.enumerated() { serveFake(path, seed: index) }
        let blocker = loader.task(for: ImageRequest(url: server.url("/blocker.tst")))
        await eventually("the blocker holds the slot") { self.server.requestCount(path: "/blocker.tst") == 1 }
        let tasks = paths.map { path, priority in loader.task(for: ImageRequest(url: server.url(path), priority: priority)) }
        await eventually("every request waits in the queue") { loader.core.queuedJobCount == paths.count }
        return [blocker] + tasks
    }

    private func finishAll(_ tasks: [ImageLoadTask]) async throws {
        for task in tasks {
            let record = try await collect(task.events)
            XCTAssertNotNil(record.response, String(describing: record.error))
        }
    }

    func testQueuedDownloadsStartByPriorityWithOneSlot() async throws {
        let loader = makeLoader(maxConcurrentDownloads: 1)
        let tasks = try await queueBehindBlocker(loader, [
            ("/low.tst", .low), ("/high.tst", .high), ("/normal.tst", .normal),
            ("/veryHigh.tst", .veryHigh), ("/veryLow.tst", .veryLow), ("/high2.tst", .high),
        ])
        try await finishAll(tasks)
        XCTAssertEqual(server.requests.map(\.path),
                       ["/blocker.tst", "/veryHigh.tst", "/high.tst", "/high2.tst", "/normal.tst", "/low.tst", "/veryLow.tst"])
    }

    func testRaisingAPriorityWhileQueuedMovesTheDownloadAhead() async throws {
        let loader = makeLoader(maxConcurrentDownloads: 1)
        let tasks = try await queueBehindBlocker(loader, [("/first.tst", .normal), ("/second.tst", .normal), ("/third.tst", .low)])
        tasks[3].setPriority(.veryHigh)
        tasks[1].setPriority(.veryLow)
        try await finishAll(tasks)
        XCTAssertEqual(server.requests.map(\.path), ["/blocker.tst", "/third.tst", "/second.tst", "/first.tst"])
    }

    func testNoMoreThanTheConfiguredDownloadsRunAtOnce() async throws {
        let loader = makeLoader(maxConcurrentDownloads: 2)
        let paths = (0..<6).map { "/parallel\($0).tst" }
        for (index, path) in paths.enumerated() { serveFake(path, seed: index) { $0.initialDelay = 0.1 } }
        let tasks = paths.map { loader.task(for: ImageRequest(url: server.url($0))) }
        var peak = 0
        let deadline = Date().addingTimeInterval(10)
        while server.requests.filter({ $0.outcome == .completed }).count < 6, Date() < deadline {
            // Status 0: arrived and still in the server's 0.1 s delay, so it surely holds a slot
            // (counting in-progress bodies would race with the client's turnaround).
            peak = max(peak, server.requests.filter { $0.status == 0 }.count)
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        try await finishAll(tasks)
        XCTAssertEqual(peak, 2)
        XCTAssertEqual(server.requests.count, 6)
    }

    func testPrefetchFillsTheMemoryCacheWithoutEvents() async throws {
        serveFake("/pre1.tst", seed: 1)
        serveFake("/pre2.tst", seed: 2)
        let loader = makeLoader()
        let urls = [server.url("/pre1.tst"), server.url("/pre2.tst")]
        loader.prefetch(urls)
        await eventually("both are cached") {
            urls.allSatisfy { loader.cachedImage(for: ImageRequest(url: $0)) != nil }
        }
        let record = try await load(ImageRequest(url: urls[1]), with: loader)
        XCTAssertEqual(record.response?.source, .memoryCache)
        XCTAssertTrue(record.response?.image == FakeImageFile.image(width: 64, height: 32, seed: 2))
        XCTAssertEqual(server.requests.count, 2)
    }

    func testCancelPrefetchStopsTheDownload() async throws {
        serveFake("/slow-pre.tst", width: 100, height: 100) { $0.chunkSize = 500; $0.pauseBetweenChunks = 0.05 }
        let loader = makeLoader()
        let url = server.url("/slow-pre.tst")
        loader.prefetch([url])
        await eventually("the prefetch started") { self.server.requestCount(path: "/slow-pre.tst") == 1 }
        loader.cancelPrefetch([url])
        await eventually("the server saw the connection close") { self.server.clientClosedCount(path: "/slow-pre.tst") == 1 }
        await eventually("the job left the table") { loader.core.activeJobCount == 0 }
        XCTAssertNil(loader.cachedImage(for: ImageRequest(url: url)))
    }

    func testCancelPrefetchKeepsARequestThatJoinedIt() async throws {
        serveFake("/joined.tst", width: 100, height: 100, seed: 4) { $0.chunkSize = 500; $0.pauseBetweenChunks = 0.01 }
        let loader = makeLoader()
        let url = server.url("/joined.tst")
        loader.prefetch([url])
        let task = loader.task(for: ImageRequest(url: url, priority: .high))
        loader.cancelPrefetch([url])
        let record = try await collect(task.events)
        XCTAssertTrue(record.response?.image == FakeImageFile.image(width: 100, height: 100, seed: 4))
        XCTAssertEqual(server.requestCount(path: "/joined.tst"), 1)
    }
}
