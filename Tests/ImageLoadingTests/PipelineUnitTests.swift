import Foundation
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// The pipeline's pure parts: queue order, preview pacing, mailbox rules, resizing, ranges.
final class PipelineUnitTests: XCTestCase {
    private final class Item {
        let name: String
        init(_ name: String) { self.name = name }
    }

    func testDownloadQueueTakesHighestPriorityThenArrivalOrder() {
        var queue = DownloadQueue<Item>()
        let a = Item("a"), b = Item("b"), c = Item("c"), d = Item("d")
        queue.enqueue(a, priority: .normal, arrival: 1)
        queue.enqueue(b, priority: .high, arrival: 2)
        queue.enqueue(c, priority: .normal, arrival: 3)
        queue.enqueue(d, priority: .low, arrival: 4)
        queue.enqueue(a, priority: .veryHigh, arrival: 5)  // already waiting: ignored
        queue.update(d, priority: .veryHigh)
        XCTAssertTrue(queue.remove(c))
        XCTAssertFalse(queue.remove(c))
        var order: [String] = []
        while let item = queue.dequeue() { order.append(item.name) }
        XCTAssertEqual(order, ["d", "b", "a"])
    }

    func testWithinAPriorityTheArrivalGivenWinsOverTheEnqueueOrder() {
        // Loads reach the queue from their own queues: the one asked for first may enqueue last.
        var queue = DownloadQueue<Item>()
        let first = Item("first"), second = Item("second"), third = Item("third")
        queue.enqueue(third, priority: .high, arrival: 12)
        queue.enqueue(second, priority: .high, arrival: 11)
        queue.enqueue(first, priority: .high, arrival: 10)
        var order: [String] = []
        while let item = queue.dequeue() { order.append(item.name) }
        XCTAssertEqual(order, ["first", "second", "third"])
    }

    func testPreviewThrottleWaitsForChangeAndInterval() {
        var throttle = PreviewThrottle(intervalNanoseconds: 100)
        XCTAssertEqual(throttle.decide(generation: 0, now: 0), .nothingNew)
        XCTAssertEqual(throttle.decide(generation: 1, now: 5), .renderNow)
        throttle.didDeliver(generation: 1, at: 5)
        XCTAssertEqual(throttle.decide(generation: 1, now: 500), .nothingNew)
        XCTAssertEqual(throttle.decide(generation: 3, now: 50), .wait(until: 105))
        XCTAssertEqual(throttle.decide(generation: 3, now: 105), .renderNow)
    }

    func testPreviewThrottleWaitsBehindQueuedInputUpToTheAllowance() {
        let allowance = PreviewThrottle.backlogAllowance
        var throttle = PreviewThrottle(intervalNanoseconds: 0)
        // A change with input queued behind it waits; the wait starts at the first such change.
        XCTAssertEqual(throttle.decide(generation: 1, now: 1_000, backlog: true), .behindInput)
        XCTAssertEqual(throttle.decide(generation: 2, now: 1_000 + allowance - 1, backlog: true), .behindInput)
        // Once it has waited the allowance, it is rendered even though input is still queued.
        XCTAssertEqual(throttle.decide(generation: 3, now: 1_000 + allowance, backlog: true), .renderNow)
        throttle.didDeliver(generation: 3, at: 1_000 + allowance)
        // Delivery restarts the clock; with nothing queued a change renders at once.
        XCTAssertEqual(throttle.decide(generation: 4, now: 2_000 + allowance, backlog: true), .behindInput)
        XCTAssertEqual(throttle.decide(generation: 4, now: 2_001 + allowance), .renderNow)
        // An unchanged picture is never rendered, queued input or not.
        XCTAssertEqual(throttle.decide(generation: 3, now: 5 * allowance, backlog: true), .nothingNew)
    }

    func testMailboxKeepsOnlyTheNewestPendingProgressAndPreview() async throws {
        let mailbox = EventMailbox()
        let small = Image(blankWidth: 1, height: 1, format: .gray8)
        let large = Image(blankWidth: 2, height: 2, format: .gray8)
        mailbox.send(.progress(received: 1, expected: nil))
        mailbox.send(.preview(small))
        mailbox.send(.progress(received: 2, expected: 9))
        mailbox.send(.preview(large))
        mailbox.finish()
        mailbox.send(.progress(received: 3, expected: nil))  // after the end: dropped
        var seen: [String] = []
        while let event = try await mailbox.next() {
            switch event {
            case .progress(let received, let expected): seen.append("progress \(received) \(expected ?? -1)")
            case .preview(let image): seen.append("preview \(image.width)")
            case .frame: seen.append("frame")
            case .completed: seen.append("completed")
            }
        }
        XCTAssertEqual(seen, ["progress 2 9", "preview 2"])
    }

    func testMailboxCancelDropsPendingEventsAndThrowsOnce() async throws {
        let mailbox = EventMailbox()
        let handlerRuns = LockedState(0)
        mailbox.setCancelHandler { handlerRuns.withLock { $0 += 1 } }
        mailbox.send(.progress(received: 1, expected: nil))
        mailbox.cancel()
        mailbox.cancel()
        do {
            _ = try await mailbox.next()
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError)
        }
        let afterEnd = try await mailbox.next()
        XCTAssertNil(afterEnd)
        XCTAssertEqual(handlerRuns.withLock { $0 }, 1)
    }

    func testMailboxHandsAnEventToAWaitingConsumer() async throws {
        let mailbox = EventMailbox()
        async let first = mailbox.next()
        try await Task.sleep(nanoseconds: 20_000_000)
        mailbox.send(.progress(received: 5, expected: nil))
        guard case .progress(5, nil)? = try await first else { return XCTFail("wrong event") }
    }

    func testThumbnailScaleKeepsTheLongerSideAtLeastTheTarget() {
        XCTAssertEqual(StreamingDecoder.scale(width: 4000, height: 3000, maxPixelSize: 600), .quarter)
        XCTAssertEqual(StreamingDecoder.scale(width: 4000, height: 3000, maxPixelSize: 501), .quarter)
        XCTAssertEqual(StreamingDecoder.scale(width: 4000, height: 3000, maxPixelSize: 500), .eighth)
        XCTAssertEqual(StreamingDecoder.scale(width: 300, height: 3000, maxPixelSize: 1600), .full)
        XCTAssertEqual(StreamingDecoder.scale(width: 300, height: 3000, maxPixelSize: 1500), .half)
    }

    func testFittedSizeKeepsTheAspectRatio() {
        XCTAssertTrue(ImageDownscaler.fittedSize(width: 400, height: 200, maxPixelSize: 60) == (60, 30))
        XCTAssertTrue(ImageDownscaler.fittedSize(width: 200, height: 401, maxPixelSize: 100) == (50, 100))
        XCTAssertTrue(ImageDownscaler.fittedSize(width: 1000, height: 1, maxPixelSize: 10) == (10, 1))
        XCTAssertTrue(ImageDownscaler.fittedSize(width: 50, height: 20, maxPixelSize: 60) == (50, 20))
    }

    func testDownscalerAveragesCoveredAreasWithFractionalEdges() {
        // 5 → 2: output 0 = (10 + 20 + 0.5·30) / 2.5 = 18, output 1 = (0.5·30 + 40 + 50) / 2.5 = 42.
        let row = Image(width: 5, height: 1, format: .gray8, pixels: [10, 20, 30, 40, 50])
        XCTAssertEqual(ImageDownscaler.resize(row, width: 2, height: 1).pixels, [18, 42])
        // 2×2 → 1×1 averages all four.
        let square = Image(width: 2, height: 2, format: .gray8, pixels: [0, 100, 200, 100])
        XCTAssertEqual(ImageDownscaler.resize(square, width: 1, height: 1).pixels, [100])
    }

    func testDownscalerAveragesColourPremultipliedByAlpha() {
        // An opaque red pixel and a transparent green one: the colour stays pure red, alpha halves.
        let pair = Image(width: 2, height: 1, format: .rgba8, pixels: [255, 0, 0, 255, 0, 255, 0, 0])
        XCTAssertEqual(ImageDownscaler.resize(pair, width: 1, height: 1).pixels, [255, 0, 0, 128])
    }

    func testDownscalerHandles16BitSamples() {
        let pair = Image(width: 2, height: 1, format: .gray16, pixels: [0x12, 0x34, 0x12, 0x36])
        XCTAssertEqual(ImageDownscaler.resize(pair, width: 1, height: 1).pixels, [0x12, 0x35])
    }

    func testContentRangeParsing() {
        XCTAssertEqual(ContentRange("bytes 100-999/1000"), ContentRange("bytes 100-999/1000"))
        XCTAssertEqual(ContentRange("bytes 100-999/1000")?.first, 100)
        XCTAssertEqual(ContentRange("bytes 100-999/1000")?.total, 1000)
        XCTAssertNil(ContentRange("bytes 100-999/*")?.total)
        XCTAssertNotNil(ContentRange("bytes 100-999/*"))
        XCTAssertNil(ContentRange("bytes */1000"))
        XCTAssertNil(ContentRange("bytes 9-3/10"))
        XCTAssertNil(ContentRange("items 1-2/3"))
    }
}
