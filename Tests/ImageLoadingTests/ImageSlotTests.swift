import Foundation
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// ``ImageSlot``: a reused cell cancels its previous load, never shows an older load's events,
/// and answers from the memory cache synchronously.
final class ImageSlotTests: LoaderTestCase {
    /// Events a slot delivered, in order.
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [ImageSlot.Event] = []
        func record(_ event: ImageSlot.Event) { lock.lock(); events.append(event); lock.unlock() }
        var all: [ImageSlot.Event] { lock.lock(); defer { lock.unlock() }; return events }
        var completedImages: [Image] {
            all.compactMap { if case .completed(let response) = $0 { return response.image } else { return nil } }
        }
        var sources: [ImageResponse.Source] {
            all.compactMap { if case .completed(let response) = $0 { return response.source } else { return nil } }
        }
    }

    private let callbackQueue = DispatchQueue(label: "slot-tests.callbacks")

    private func setUp(_ network: ScriptedDataLoader) -> ImageLoader {
        makeLoader(disk: false) { $0.dataLoader = network }
    }

    func testReusingTheSlotCancelsThePreviousLoadAndDropsItsEvents() async throws {
        let network = ScriptedDataLoader()
        let loader = setUp(network)
        let slot = ImageSlot(loader: loader, callbackQueue: callbackQueue)
        let first = Recorder(), second = Recorder()
        let oldURL = URL(string: "http://images.test/old.tst")!, newURL = URL(string: "http://images.test/new.tst")!
        slot.load(ImageRequest(url: oldURL)) { first.record($0) }
        let oldTransfer = try await network.transfer(0)
        oldTransfer.respond()
        oldTransfer.send(FakeImageFile.bytes(width: 16, height: 16, seed: 1).prefix(50))
        // The cell is reused before the old image arrived.
        slot.load(ImageRequest(url: newURL)) { second.record($0) }
        await eventually("the old download was cancelled") { oldTransfer.isCancelled }
        let newTransfer = try await network.transfer(1)
        newTransfer.serve(FakeImageFile.bytes(width: 16, height: 16, seed: 2))
        await eventually("the new image arrived") { second.completedImages.count == 1 }
        callbackQueue.sync {}
        XCTAssertTrue(second.completedImages.first == FakeImageFile.image(width: 16, height: 16, seed: 2))
        XCTAssertEqual(second.sources, [.network])
        XCTAssertTrue(first.completedImages.isEmpty, "the old load never completes into the reused cell")
        XCTAssertTrue(first.all.allSatisfy { if case .failed = $0 { return false } else { return true } },
                      "a cancelled load reports no failure")
        XCTAssertEqual(slot.request?.url, newURL)
    }

    func testEventsAlreadyQueuedForAnOlderLoadAreDropped() async throws {
        let network = ScriptedDataLoader()
        let loader = setUp(network)
        let slot = ImageSlot(loader: loader, callbackQueue: callbackQueue)
        let first = Recorder(), second = Recorder()
        // Hold the callback queue from before the first load starts, so every event of that load
        // (its completion included) waits there however fast it finishes; then reload.
        let gate = DispatchSemaphore(value: 0)
        callbackQueue.async { gate.wait() }
        slot.load(ImageRequest(url: URL(string: "http://images.test/a.tst")!)) { first.record($0) }
        try await network.transfer(0).serve(FakeImageFile.bytes(width: 8, height: 8, seed: 3))
        await eventually("the first load finished in the loader") { loader.core.activeJobCount == 0 }
        slot.load(ImageRequest(url: URL(string: "http://images.test/b.tst")!)) { second.record($0) }
        gate.signal()
        callbackQueue.sync {}
        XCTAssertTrue(first.all.isEmpty, "the older load's queued events were dropped: \(first.all.count)")
        try await network.transfer(1).serve(FakeImageFile.bytes(width: 8, height: 8, seed: 4))
        await eventually("the second image arrived") { second.completedImages.count == 1 }
        XCTAssertTrue(second.completedImages.first == FakeImageFile.image(width: 8, height: 8, seed: 4))
    }

    func testAMemoryCacheHitIsDeliveredSynchronouslyWithoutFadeIn() async throws {
        let network = ScriptedDataLoader()
        let loader = setUp(network)
        let request = ImageRequest(url: URL(string: "http://images.test/cached.tst")!)
        let task = loader.task(for: request)
        try await network.transfer(0).serve(FakeImageFile.bytes(width: 8, height: 8, seed: 5))
        let loaded = try await collect(task.events)
        XCTAssertEqual(loaded.response?.isFromNetwork, true, "the first load fades in")
        let slot = ImageSlot(loader: loader, callbackQueue: callbackQueue)
        let recorder = Recorder()
        let answeredAtOnce = slot.load(request) { recorder.record($0) }
        // No waiting at all: the handler already ran.
        XCTAssertTrue(answeredAtOnce)
        XCTAssertEqual(recorder.sources, [.memoryCache])
        XCTAssertTrue(recorder.completedImages.first == FakeImageFile.image(width: 8, height: 8, seed: 5))
        XCTAssertEqual(network.started.count, 1)
    }

    func testCancelStopsTheLoadAndItsEvents() async throws {
        let network = ScriptedDataLoader()
        let loader = setUp(network)
        let slot = ImageSlot(loader: loader, callbackQueue: callbackQueue)
        let recorder = Recorder()
        slot.load(ImageRequest(url: URL(string: "http://images.test/c.tst")!)) { recorder.record($0) }
        let transfer = try await network.transfer(0)
        slot.cancel()
        await eventually("the download was cancelled") { transfer.isCancelled }
        XCTAssertNil(slot.request)
        callbackQueue.sync {}
        XCTAssertTrue(recorder.all.isEmpty)
    }

    func testAFailureIsDeliveredToTheCurrentLoad() async throws {
        let network = ScriptedDataLoader()
        let loader = setUp(network)
        let slot = ImageSlot(loader: loader, callbackQueue: callbackQueue)
        let recorder = Recorder()
        slot.load(ImageRequest(url: URL(string: "http://images.test/missing.tst")!)) { recorder.record($0) }
        try await network.transfer(0).respond(status: 404)
        await eventually("the failure arrived") { !recorder.all.isEmpty }
        guard case .failed(let error)? = recorder.all.last else { return XCTFail("\(recorder.all)") }
        XCTAssertEqual(error as? ImageLoadingError, .httpStatus(404))
    }
}
