import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// Shared downloads, cancellation (explicit and by task), and what it leaves behind.
final class CoalescingAndCancellationTests: LoaderTestCase {
    /// A 100×100 TST1 image served in 500-byte pieces 10 ms apart (~200 ms).
    private func serveSlow(_ path: String, seed: Int = 0, pause: TimeInterval = 0.01) {
        serveFake(path, width: 100, height: 100, seed: seed) { $0.chunkSize = 500; $0.pauseBetweenChunks = pause }
    }

    func testTenConcurrentRequestsShareOneDownload() async throws {
        serveSlow("/shared.tst", seed: 3)
        let loader = makeLoader()
        let url = server.url("/shared.tst")
        let tasks = (0..<10).map { _ in loader.task(for: ImageRequest(url: url)) }
        let records = try await withTimeout(10) {
            try await withThrowingTaskGroup(of: LoadRecord.self) { group in
                for task in tasks { group.addTask { try await Self.collect(task.events) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let expected = FakeImageFile.image(width: 100, height: 100, seed: 3)
        XCTAssertEqual(records.count, 10)
        for record in records { XCTAssertTrue(record.response?.image == expected) }
        XCTAssertEqual(server.requestCount(path: "/shared.tst"), 1)
    }

    func testCancellingOneOfTwoKeepsTheOtherGoing() async throws {
        serveSlow("/two.tst", seed: 1)
        let loader = makeLoader()
        let url = server.url("/two.tst")
        let leaving = loader.task(for: ImageRequest(url: url))
        let staying = loader.task(for: ImageRequest(url: url))
        let cancelled = try await collect(leaving.events) { event in
            if case .progress = event { leaving.cancel() }
        }
        XCTAssertTrue(cancelled.error is CancellationError)
        XCTAssertEqual(cancelled.order, ["progress"], "nothing after cancel()")
        let finished = try await collect(staying.events)
        XCTAssertTrue(finished.response?.image == FakeImageFile.image(width: 100, height: 100, seed: 1))
        XCTAssertEqual(server.requestCount(path: "/two.tst"), 1)
        XCTAssertEqual(server.clientClosedCount(path: "/two.tst"), 0)
    }

    func testCancellingMidStreamClosesTheConnectionAndLeavesNothingBehind() async throws {
        serveSlow("/cancel.tst", pause: 0.05)  // ~1 s in all
        weak var weakJob: DecodeTask?
        do {
            let loader = makeLoader()
            let request = ImageRequest(url: server.url("/cancel.tst"))
            let task = loader.task(for: request)
            weakJob = loader.core.activeJob(for: request)
            XCTAssertNotNil(weakJob)
            let record = try await collect(task.events) { event in
                if case .preview = event { task.cancel() }
            }
            XCTAssertTrue(record.error is CancellationError)
            XCTAssertEqual(record.order.last, "preview", "no event after cancel()")
            XCTAssertEqual(record.order.filter { $0 == "preview" }.count, 1)
            await eventually("the server saw the connection close") { self.server.clientClosedCount(path: "/cancel.tst") == 1 }
            await eventually("the job left the table") { loader.core.activeJobCount == 0 }
            XCTAssertNil(loader.cachedImage(for: ImageRequest(url: server.url("/cancel.tst"))))
        }
        await eventually("the job was freed") { weakJob == nil }
    }

    func testCancellingTheConsumingTaskCancelsTheLoad() async throws {
        serveSlow("/task-cancel.tst", pause: 0.05)
        let loader = makeLoader()
        let url = server.url("/task-cancel.tst")
        let seenFirstEvent = LockedState(false)
        let consumer = Task {
            var count = 0
            // The stream lives only in this task, as in a view's loading task.
            for try await event in loader.images(for: ImageRequest(url: url)) {
                if case .completed = event { return (count, true) }
                count += 1
                seenFirstEvent.withLock { $0 = true }
            }
            return (count, false)
        }
        await eventually("an event arrived") { seenFirstEvent.withLock { $0 } }
        consumer.cancel()
        // A cancelled consumer sees the stream end (or CancellationError if it was waiting).
        let outcome = try? await withTimeout { try await consumer.value }
        XCTAssertEqual(outcome?.1 ?? false, false, "no completion after cancellation")
        await eventually("the server saw the connection close") { self.server.clientClosedCount(path: "/task-cancel.tst") == 1 }
        await eventually("the job left the table") { loader.core.activeJobCount == 0 }
    }

    func testDroppingTheStreamWithoutCancellingStopsTheLoad() async throws {
        serveSlow("/dropped.tst", pause: 0.05)
        let loader = makeLoader()
        do {
            let task = loader.task(for: ImageRequest(url: server.url("/dropped.tst")))
            await eventually("the request reached the server") { self.server.requestCount(path: "/dropped.tst") == 1 }
            _ = task
        }
        await eventually("the job left the table") { loader.core.activeJobCount == 0 }
        await eventually("the server saw the connection close") { self.server.clientClosedCount(path: "/dropped.tst") == 1 }
    }

    func testCancelledRequestIsNotRememberedAsFailed() async throws {
        serveSlow("/again.tst", seed: 2, pause: 0.02)
        let loader = makeLoader()
        let url = server.url("/again.tst")
        let first = loader.task(for: ImageRequest(url: url))
        _ = try await collect(first.events) { event in if case .progress = event { first.cancel() } }
        // Once the cancelled load is gone (a request made before that joins its download instead).
        await eventually("the cancelled load left") { loader.core.activeJobCount == 0 && loader.core.activeDataTaskCount == 0 }
        XCTAssertNil(loader.core.failures.failure(for: url))
        let second = try await load(ImageRequest(url: url), with: loader)
        XCTAssertTrue(second.response?.image == FakeImageFile.image(width: 100, height: 100, seed: 2))
        XCTAssertEqual(server.requestCount(path: "/again.tst"), 2)
    }

    func testLoaderGoingAwayCancelsItsLoads() async throws {
        serveSlow("/orphan.tst", pause: 0.05)
        var loader: ImageLoader? = makeLoader()
        let task = try XCTUnwrap(loader?.task(for: ImageRequest(url: server.url("/orphan.tst"))))
        await eventually("the request reached the server") { self.server.requestCount(path: "/orphan.tst") == 1 }
        loader = nil
        let record = try await collect(task.events)
        XCTAssertTrue(record.error is CancellationError)
        XCTAssertNil(record.response)
    }
}
