import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// What one load delivered.
struct LoadRecord: @unchecked Sendable {
    var progress: [(received: Int, expected: Int?)] = []
    var previews: [Image] = []
    var frames: [AnimationFrame] = []
    var response: ImageResponse?
    var error: (any Error)?
    /// Every event, in order, as a short tag: "progress", "preview", "completed".
    var order: [String] = []

    var loadingError: ImageLoadingError? { error as? ImageLoadingError }
}

/// Thrown when a test step takes longer than its budget.
struct TestTimeout: Error, CustomStringConvertible {
    var seconds: TimeInterval
    var description: String { "timed out after \(seconds) s" }
}

/// Shared setup for loader tests: a loopback server, a scratch disk-cache folder, and helpers
/// that never wait without a deadline.
class LoaderTestCase: XCTestCase {
    var server: LoopbackHTTPServer!
    var scratch: URL!

    /// The standard decoders plus the test-only TST1 format.
    static let registry = ImageDecoderRegistry.standard.adding(ImageDecoderFactory(
        formatName: "TST1", signature: FakeRowDecoder.signature, supportsScaling: true) { FakeRowDecoder(options: $0) })

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("loader-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The disk-cache folder of this test.
    var diskDirectory: URL { scratch.appendingPathComponent("disk") }

    /// A loader for tests: TST1 registered, disk cache in the scratch folder (or none).
    func makeLoader(maxConcurrentDownloads: Int = 4, previewInterval: TimeInterval = 0.02, disk: Bool = true,
                    diskLimit: Int = 64 << 20, idleTimeout: TimeInterval = 10, maximumBodySize: Int = 64 << 20,
                    memoryLimit: Int = 64 << 20, retryPolicy: RetryPolicy = .never,
                    configure: (inout ImageLoader.Configuration) -> Void = { _ in }) -> ImageLoader {
        var configuration = ImageLoader.Configuration(
            maxConcurrentDownloads: maxConcurrentDownloads, previewInterval: previewInterval, memoryCacheCostLimit: memoryLimit,
            diskCacheDirectory: disk ? diskDirectory : nil, diskCacheSizeLimit: diskLimit, idleTimeout: idleTimeout,
            totalTimeout: 60, maximumBodySize: maximumBodySize, retryPolicy: retryPolicy,
            decoders: Self.registry)
        configure(&configuration)
        return ImageLoader(configuration: configuration)
    }

    /// Serves a TST1 image at `path`; returns its bytes.
    @discardableResult
    func serveFake(_ path: String, width: Int = 64, height: Int = 32, seed: Int = 0,
                   configure: (inout HTTPRoute) -> Void = { _ in }) -> [UInt8] {
        let bytes = FakeImageFile.bytes(width: width, height: height, seed: seed)
        var route = HTTPRoute(body: bytes)
        configure(&route)
        server.setRoute(path, route)
        return bytes
    }

    /// Runs `operation`, failing with ``TestTimeout`` after `seconds`.
    func withTimeout<T: Sendable>(_ seconds: TimeInterval = 10,
                                  _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Self.withTimeout(seconds, operation)
    }

    /// Runs `operation`, failing with ``TestTimeout`` after `seconds` (callable from any task).
    static func withTimeout<T: Sendable>(_ seconds: TimeInterval = 10,
                                  _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        // The timer yields nil when cancelled, so cancelling the caller cancels only the operation.
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                do { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } catch { return nil }
                throw TestTimeout(seconds: seconds)
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let result = next { return result }
            }
            throw TestTimeout(seconds: seconds)
        }
    }

    /// Collects every event of `events` (within `seconds`); `onEvent` may act on each (e.g. cancel).
    func collect(_ events: AsyncThrowingStream<ImageLoadEvent, any Error>, seconds: TimeInterval = 10,
                 onEvent: @escaping @Sendable (ImageLoadEvent) -> Void = { _ in }) async throws -> LoadRecord {
        try await Self.collect(events, seconds: seconds, onEvent: onEvent)
    }

    /// Collects every event of `events` (callable from any task).
    static func collect(_ events: AsyncThrowingStream<ImageLoadEvent, any Error>, seconds: TimeInterval = 10,
                        onEvent: @escaping @Sendable (ImageLoadEvent) -> Void = { _ in }) async throws -> LoadRecord {
        try await withTimeout(seconds) {
            var record = LoadRecord()
            do {
                for try await event in events {
                    onEvent(event)
                    switch event {
                    case .progress(let received, let expected):
                        record.progress.append((received, expected))
                        record.order.append("progress")
                    case .preview(let image):
                        record.previews.append(image)
                        record.order.append("preview")
                    case .frame(let frame):
                        record.frames.append(frame)
                        record.order.append("frame")
                    case .completed(let response):
                        record.response = response
                        record.order.append("completed")
                    }
                }
            } catch {
                record.error = error
            }
            return record
        }
    }

    /// Loads `request` with `loader` and collects the events.
    func load(_ request: ImageRequest, with loader: ImageLoader, seconds: TimeInterval = 10) async throws -> LoadRecord {
        try await collect(loader.images(for: request), seconds: seconds)
    }

    /// Waits until `condition` holds (polling), failing the test after `seconds`.
    func eventually(_ message: String, seconds: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
                    _ condition: @escaping () -> Bool) async {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return XCTFail("never happened: \(message)", file: file, line: line) }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}
