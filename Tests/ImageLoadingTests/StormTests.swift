import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// Many overlapping requests with random cancellation: no crash, no hang, right images, nothing left over.
final class StormTests: LoaderTestCase {
    private struct Plan: Sendable {
        var urlIndex: Int
        var request: ImageRequest
        /// Milliseconds after starting to cancel, or nil to let it finish.
        var cancelAfter: Int?
        var cancelByTask: Bool
    }

    func testStormOf200RequestsWithRandomCancellations() async throws {
        let urlCount = 20
        for index in 0..<urlCount {
            serveFake("/storm\(index).tst", width: 100, height: 50, seed: index) { route in
                route.chunkSize = 1000
                route.pauseBetweenChunks = 0.005
                if index % 7 == 3 { route.chunkedEncoding = true }
            }
        }
        server.setRoute("/storm-404.tst", .failure(404))
        let loader = makeLoader(maxConcurrentDownloads: 4)
        var random = SeededGenerator(seed: 2024)
        let plans: [Plan] = (0..<200).map { _ in
            let urlIndex = Int.random(in: 0...urlCount, using: &random)  // urlCount: the 404 route
            let path = urlIndex == urlCount ? "/storm-404.tst" : "/storm\(urlIndex).tst"
            let request = ImageRequest(url: server.url(path), priority: ImagePriority.allCases.randomElement(using: &random) ?? .normal,
                                       deliversPreviews: Bool.random(using: &random),
                                       maxPixelSize: Int.random(in: 0..<4, using: &random) == 0 ? 20 : nil,
                                       retryFailed: Bool.random(using: &random))
            let cancels = Int.random(in: 0..<10, using: &random) < 4
            return Plan(urlIndex: urlIndex, request: request, cancelAfter: cancels ? Int.random(in: 0..<150, using: &random) : nil,
                        cancelByTask: Bool.random(using: &random))
        }

        let records = try await withTimeout(60) {
            try await withThrowingTaskGroup(of: (Int, LoadRecord).self) { group in
                for (index, plan) in plans.enumerated() {
                    let task = loader.task(for: plan.request)
                    let consumer = Task { try await Self.collect(task.events, seconds: 50) }
                    if let delay = plan.cancelAfter {
                        Task {
                            try await Task.sleep(nanoseconds: UInt64(delay) * 1_000_000)
                            if plan.cancelByTask { consumer.cancel() } else { task.cancel() }
                        }
                    }
                    group.addTask { (index, try await consumer.value) }
                }
                return try await group.reduce(into: [Int: LoadRecord]()) { $0[$1.0] = $1.1 }
            }
        }

        XCTAssertEqual(records.count, 200)
        var completed = 0, cancelled = 0
        for (index, plan) in plans.enumerated() {
            let record = try XCTUnwrap(records[index])
            if plan.urlIndex == urlCount {
                // The 404: a status error (or a remembered one), or cancelled.
                let expectedFailure = record.loadingError == .httpStatus(404) || record.loadingError == .previouslyFailed(.httpStatus(404))
                XCTAssertTrue(expectedFailure || record.error is CancellationError, "request \(index): \(String(describing: record.error))")
                continue
            }
            if let response = record.response {
                completed += 1
                var expected = FakeImageFile.image(width: 100, height: 50, seed: plan.urlIndex)
                if plan.request.maxPixelSize != nil {
                    // 100×50 for 20 px: decoder scale 1/4 (25×13), then exactly 20×10.
                    let quarter = try ImageSource.decode(FakeImageFile.bytes(width: 100, height: 50, seed: plan.urlIndex),
                                                         options: DecodingOptions(scale: .quarter), registry: Self.registry)
                    expected = ImageDownscaler.fit(quarter, maxPixelSize: 20)
                    XCTAssertEqual([expected.width, expected.height], [20, 10])
                }
                XCTAssertTrue(response.image == expected, "request \(index) got the wrong picture")
            } else {
                cancelled += 1
                XCTAssertNotNil(plan.cancelAfter, "request \(index) failed without being cancelled: \(String(describing: record.error))")
                // Explicit cancel() throws CancellationError; a cancelled consuming task sees the
                // stream end (nil), or the error if it was waiting at that moment.
                let endedQuietly = plan.cancelByTask && record.error == nil
                XCTAssertTrue(record.error is CancellationError || endedQuietly, "request \(index): \(String(describing: record.error))")
            }
        }
        XCTAssertGreaterThan(completed, 100)
        XCTAssertGreaterThan(cancelled, 10)
        await eventually("every job ended") { loader.core.activeJobCount == 0 && loader.core.queuedJobCount == 0 }
        XCTAssertLessThan(server.requests.count, 120, "coalescing and caching keep the download count down")
    }
}
