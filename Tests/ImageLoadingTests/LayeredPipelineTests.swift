import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// The pipeline's layers through a scripted ``DataLoading``: one data task per resource, one
/// decode task per variant, bounded decoders, suspension, and what ends when.
final class LayeredPipelineTests: LoaderTestCase {
    private func scriptedLoader(_ network: ScriptedDataLoader, decodes: Int = 4, disk: Bool = false,
                                retry: RetryPolicy = .never) -> ImageLoader {
        makeLoader(disk: disk, retryPolicy: retry) { configuration in
            configuration.dataLoader = network
            configuration.maxConcurrentDecodes = decodes
        }
    }

    private let url = URL(string: "http://images.test/photo.tst")!

    /// What the loader should deliver for `bytes` with `maxPixelSize`: a direct decode.
    private func expected(_ bytes: [UInt8], maxPixelSize: Int?) throws -> Image {
        let decoder = StreamingDecoder(options: DecodingOptions(), registry: Self.registry, maxPixelSize: maxPixelSize)
        try bytes.withUnsafeBytes { try decoder.feed($0) }
        return try decoder.finish()
    }

    func testVariantsShareOneDownloadAndDecodeSeparately() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        let bytes = FakeImageFile.bytes(width: 64, height: 32, seed: 3)
        let full = loader.task(for: ImageRequest(url: url))
        let thumb = loader.task(for: ImageRequest(url: url, maxPixelSize: 16))
        let transfer = try await network.transfer(0)
        XCTAssertEqual(loader.core.activeDataTaskCount, 1)
        XCTAssertEqual(loader.core.activeJobCount, 2)
        transfer.serve(bytes)
        let (fullRecord, thumbRecord) = try await (collect(full.events), collect(thumb.events))
        XCTAssertEqual(fullRecord.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 3))
        XCTAssertEqual(thumbRecord.response?.image, try expected(bytes, maxPixelSize: 16))
        XCTAssertEqual(thumbRecord.response.map { [$0.image.width, $0.image.height] }, [16, 8])
        XCTAssertEqual(network.started.count, 1, "one download for both variants")
    }

    func testAVariantJoiningMidDownloadCatchesUpWithoutASecondDownload() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        let bytes = FakeImageFile.bytes(width: 64, height: 32, seed: 4)
        let first = loader.task(for: ImageRequest(url: url))
        let transfer = try await network.transfer(0)
        transfer.respond(headers: ["Content-Length": String(bytes.count)])
        transfer.send(bytes.prefix(1000))
        let late = loader.task(for: ImageRequest(url: url, maxPixelSize: 32))
        transfer.send(bytes.dropFirst(1000))
        transfer.finish()
        let (firstRecord, lateRecord) = try await (collect(first.events), collect(late.events))
        XCTAssertEqual(firstRecord.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 4))
        XCTAssertEqual(lateRecord.response?.image, try expected(bytes, maxPixelSize: 32))
        XCTAssertEqual(lateRecord.progress.last?.received, bytes.count, "the late variant counted the bytes it caught up on")
        XCTAssertEqual(network.started.count, 1)
    }

    func testCancellingOneVariantLeavesTheOthersAndTheDownload() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        let bytes = FakeImageFile.bytes(width: 64, height: 32, seed: 5)
        let leaving = loader.task(for: ImageRequest(url: url, maxPixelSize: 8))
        let staying = loader.task(for: ImageRequest(url: url))
        let transfer = try await network.transfer(0)
        transfer.respond()
        transfer.send(bytes.prefix(500))
        leaving.cancel()
        await eventually("the cancelled variant left") { loader.core.activeJobCount == 1 }
        XCTAssertFalse(transfer.isCancelled, "the download goes on for the other variant")
        transfer.send(bytes.dropFirst(500))
        transfer.finish()
        let record = try await collect(staying.events)
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 5))
        let cancelled = try await collect(leaving.events)
        XCTAssertTrue(cancelled.error is CancellationError)
    }

    func testCancellingTheLastVariantCancelsTheDownload() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        let a = loader.task(for: ImageRequest(url: url, maxPixelSize: 8))
        let b = loader.task(for: ImageRequest(url: url))
        let transfer = try await network.transfer(0)
        transfer.respond()
        a.cancel()
        b.cancel()
        await eventually("the download was cancelled") { transfer.isCancelled }
        await eventually("nothing is left") { loader.core.activeJobCount == 0 && loader.core.activeDataTaskCount == 0 }
    }

    func testSuspendedLoaderStartsNoDownloadsUntilResumed() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        loader.isSuspended = true
        let task = loader.task(for: ImageRequest(url: url))
        await eventually("the download waits in the queue") { loader.core.queuedJobCount == 1 }
        XCTAssertEqual(network.started.count, 0)
        loader.isSuspended = false
        let transfer = try await network.transfer(0)
        transfer.serve(FakeImageFile.bytes(width: 8, height: 8, seed: 1))
        let record = try await collect(task.events)
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 8, height: 8, seed: 1))
    }

    func testSuspensionLetsRunningDownloadsFinish() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        let running = loader.task(for: ImageRequest(url: url))
        let transfer = try await network.transfer(0)
        loader.isSuspended = true
        let waiting = loader.task(for: ImageRequest(url: URL(string: "http://images.test/other.tst")!))
        await eventually("the second download waits") { loader.core.queuedJobCount == 1 }
        transfer.serve(FakeImageFile.bytes(width: 8, height: 8, seed: 2))
        let record = try await collect(running.events)
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 8, height: 8, seed: 2))
        XCTAssertEqual(network.started.count, 1, "nothing new started while suspended")
        waiting.cancel()
    }

    func testDecodersInFlightAreBoundedAndTheRestWait() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network, decodes: 1)
        let urls = (0..<3).map { URL(string: "http://images.test/\($0).tst")! }
        let tasks = urls.map { loader.task(for: ImageRequest(url: $0)) }
        var transfers: [ScriptedDataLoader.Transfer] = []
        for index in 0..<3 { transfers.append(try await network.transfer(index)) }
        // Downloads start in whatever order the lookups finish: match them by URL.
        transfers.sort { ($0.request.url?.path ?? "") < ($1.request.url?.path ?? "") }
        let files = (0..<3).map { FakeImageFile.bytes(width: 32, height: 32, seed: $0) }
        for (transfer, file) in zip(transfers, files) {
            transfer.respond()
            transfer.send(file.prefix(100))
        }
        await eventually("one decoder runs") { loader.core.runningDecodeCount == 1 }
        try await Task.sleep(nanoseconds: 50_000_000)
        XCTAssertEqual(loader.core.runningDecodeCount, 1, "never more than maxConcurrentDecodes")
        for (transfer, file) in zip(transfers, files) {
            transfer.send(file.dropFirst(100))
            transfer.finish()
        }
        for (index, task) in tasks.enumerated() {
            let record = try await collect(task.events)
            XCTAssertTrue(record.response?.image == FakeImageFile.image(width: 32, height: 32, seed: index), "image \(index)")
        }
    }

    func testAFinishedTaskKeptByTheCallerHoldsNoDecoder() async throws {
        let network = ScriptedDataLoader()
        let loader = scriptedLoader(network)
        let task = loader.task(for: ImageRequest(url: url))
        weak var decodeTask = loader.core.activeJob(for: ImageRequest(url: url))
        weak var dataTask = loader.core.activeDataTask(for: ImageRequest(url: url))
        XCTAssertNotNil(decodeTask)
        try await network.transfer(0).serve(FakeImageFile.bytes(width: 64, height: 64, seed: 1))
        let record = try await collect(task.events)
        XCTAssertNotNil(record.response)
        await eventually("the decode task and its decoder were freed while the caller keeps the task") {
            decodeTask == nil && dataTask == nil
        }
        withExtendedLifetime(task) {}
    }

    func testHeadersOfTheURLRequestAndTheModifierReachTheNetwork() async throws {
        let network = ScriptedDataLoader()
        let loader = makeLoader(disk: false) { configuration in
            configuration.dataLoader = network
            configuration.requestModifier = { request in
                var modified = request
                modified.setValue("Bearer fresh", forHTTPHeaderField: "Authorization")
                return modified
            }
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.setValue("session=abc", forHTTPHeaderField: "Cookie")
        urlRequest.setValue("Bearer stale", forHTTPHeaderField: "Authorization")
        let task = loader.task(for: ImageRequest(urlRequest: urlRequest))
        let transfer = try await network.transfer(0)
        XCTAssertEqual(transfer.header("Cookie"), "session=abc")
        XCTAssertEqual(transfer.header("Authorization"), "Bearer fresh", "the modifier runs last")
        transfer.serve(FakeImageFile.bytes(width: 4, height: 4, seed: 1))
        let record = try await collect(task.events)
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 4, height: 4, seed: 1))
    }

    func testAThrowingRequestModifierFailsTheLoad() async throws {
        struct NoToken: Error {}
        let network = ScriptedDataLoader()
        let loader = makeLoader(disk: false) { configuration in
            configuration.dataLoader = network
            configuration.requestModifier = { _ in throw NoToken() }
        }
        let record = try await load(ImageRequest(url: url), with: loader)
        guard case .requestModifierFailed? = record.loadingError else { return XCTFail("\(String(describing: record.error))") }
        XCTAssertEqual(network.started.count, 0)
    }
}
