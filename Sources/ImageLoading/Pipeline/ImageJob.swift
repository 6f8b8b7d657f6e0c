import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

/// One load shared by every request with the same ``JobKey``: one cache lookup, one download,
/// one decode, events fanned out to each subscriber.
///
/// Threads: URLSession callbacks arrive on the session's delegate queue and only queue bytes
/// (under `shared`); all decoding, preview rendering, cache writes and event sending happen on
/// ``queue``, the job's own serial queue. Properties marked *queue-confined* are touched only there.
final class ImageJob: @unchecked Sendable {
    let key: JobKey
    let request: ImageRequest
    let core: LoaderCore
    /// The job's serial executor.
    let queue: DispatchQueue

    /// Where a job stands, as seen from any thread.
    enum Phase {
        /// Looking up caches, waiting for a slot, downloading or decoding.
        case active
        /// Completed or failed: subscribers have been told.
        case finished
        /// Every subscriber left.
        case cancelled
    }

    /// State shared between the delegate queue, the job queue and callers of the loader.
    struct Shared {
        var subscribers: [Int: Subscriber] = [:]
        var phase = Phase.active
        var task: URLSessionDataTask?
        /// Received bytes waiting for the decoder. Example: three 16 KiB callbacks while the
        /// decoder is busy leave three chunks here; the next drain feeds all three, then renders
        /// at most one preview, which is how intermediate previews are skipped when decoding lags.
        ///
        /// Bounded by ``ImageLoader/Configuration/maximumBodySize``, not by a smaller window:
        /// URLSession has no flow control for data tasks. Suspending one restarts it on resume
        /// (Apple documents this for every task but downloads; swift-corelibs-foundation 6.3 was
        /// measured re-sending the first 131 072 bytes of a 2 MB body), so the loader never
        /// suspends, and each chunk is held once, without copies, until decoded.
        var pending: [Data] = []
        var drainScheduled = false
        /// Body bytes received in this response (the loader counts them itself: on Linux
        /// `countOfBytesReceived` stays 0).
        var receivedBytes = 0
        /// Bytes already on hand before this response (a resumed download's prefix).
        var resumeOffset = 0
        /// Uptime of the last sign of life from the server, for the idle timeout.
        var lastActivity: UInt64 = 0
        /// Set once the response failed a check: later callbacks are ignored.
        var isStopped = false
    }

    let shared = LockedState(Shared())

    // Queue-confined:
    var decoder: StreamingDecoder
    var throttle: PreviewThrottle
    var previewCheckScheduled = false
    /// Bytes given to the decoder (including a resumed prefix).
    var decodedBytes = 0
    /// The whole body's length, if known.
    var expectedLength: Int?
    /// Every byte so far, kept only when the disk cache will want them (whole file or resume prefix).
    var retainedData: Data?
    /// A partial download from the disk cache this job tries to continue.
    var resumable: ResumableDownload?
    /// What a later retry can resume with (`If-Range`), from this response.
    var resumeValidator: String?
    var downloadStart: UInt64 = 0
    /// Set when the subscribers have been told the outcome (or the job was cancelled).
    var isDone = false

    init(core: LoaderCore, key: JobKey, request: ImageRequest) {
        self.core = core
        self.key = key
        self.request = request
        queue = DispatchQueue(label: "ImageLoading.job", target: core.decodingQueue)
        decoder = StreamingDecoder(options: request.decodingOptions, registry: core.configuration.decoders,
                                   maxPixelSize: request.maxPixelSize)
        throttle = PreviewThrottle(intervalNanoseconds: UInt64(max(core.configuration.previewInterval, 0) * 1e9))
    }

    /// The disk-cache key of the encoded bytes: the URL alone, since every option applies after decoding.
    var dataCacheKey: String { "data " + request.url.absoluteString }

    static var uptime: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Subscribers (called by LoaderCore under its table lock)

    /// Adds a subscriber; false if the job has already ended.
    func addSubscriber(id: Int, _ subscriber: Subscriber) -> Bool {
        shared.withLock { shared in
            guard shared.phase == .active else { return false }
            shared.subscribers[id] = subscriber
            return true
        }
    }

    /// Removes a subscriber; true if that was the last one (the job is then cancelled).
    func removeSubscriber(id: Int) -> Bool {
        shared.withLock { shared in
            guard shared.phase == .active, shared.subscribers.removeValue(forKey: id) != nil,
                  shared.subscribers.isEmpty else { return false }
            shared.phase = .cancelled
            return true
        }
    }

    /// The highest priority among the subscribers.
    var priority: ImagePriority {
        shared.withLock { $0.subscribers.values.map(\.priority).max() ?? .veryLow }
    }

    func setPriority(_ priority: ImagePriority, subscriberID: Int) {
        shared.withLock { $0.subscribers[subscriberID]?.priority = priority }
    }

    /// Ends the subscriber list for good and returns it.
    func takeSubscribers() -> [Subscriber] {
        shared.withLock { shared in
            if shared.phase == .active { shared.phase = .finished }
            let subscribers = Array(shared.subscribers.values)
            shared.subscribers = [:]
            return subscribers
        }
    }

    var isCancelled: Bool { shared.withLock { $0.phase == .cancelled } }

    // MARK: Lifecycle

    /// Starts the work on the job's queue: caches first, then the file or the download queue.
    func start() {
        queue.async { self.lookUpCachesThenLoad() }
    }

    private func lookUpCachesThenLoad() {
        guard !isDone, !isCancelled else { return }
        let policy = request.cachePolicy
        if policy.readsDisk, let disk = core.diskCache, let record = disk.read(key: dataCacheKey, kind: .complete) {
            if decodeCachedData(record.payload) { return }
            // Intact on disk but not a decodable image: drop it and load afresh.
            disk.remove(key: dataCacheKey, kind: .complete)
        }
        guard policy.usesNetwork else { return fail(.notCached) }
        if request.url.isFileURL { return loadFile() }
        if core.diskCache != nil, policy.writesDisk { retainedData = Data() }
        if policy.readsDisk, let record = core.diskCache?.read(key: dataCacheKey, kind: .partial) {
            resumable = ResumableDownload(record: record)
        }
        core.enqueueDownload(self)
    }

    /// Decodes encoded bytes from the disk cache; false if they do not decode.
    private func decodeCachedData(_ data: Data) -> Bool {
        let cachedDecoder = StreamingDecoder(options: request.decodingOptions, registry: core.configuration.decoders,
                                             maxPixelSize: request.maxPixelSize)
        guard (try? data.withUnsafeBytes({ try cachedDecoder.feed($0) })) != nil,
              let image = try? cachedDecoder.finish() else { return false }
        deliverFinal(image, source: .diskCache)
        return true
    }

    /// Applies the transform, caches and sends the final image to every subscriber.
    func deliverFinal(_ decoded: Image, source: ImageResponse.Source) {
        guard !isDone else { return }
        var image = decoded
        if let transform = request.transform {
            do { image = try transform.apply(image) } catch { return fail(.transformFailed(String(describing: error))) }
        }
        if source == .network, let data = retainedData, request.cachePolicy.writesDisk, let disk = core.diskCache {
            disk.write(key: dataCacheKey, kind: .complete, metadata: [:], payload: data)
            disk.remove(key: dataCacheKey, kind: .partial)
        }
        core.memoryCache.insert(image, for: key.result)
        core.failures.forget(request.url)
        isDone = true
        let response = ImageResponse(image: image, source: source, url: request.url)
        for subscriber in core.retire(self) {
            subscriber.mailbox?.send(.completed(response))
            subscriber.mailbox?.finish()
        }
    }

    /// Ends the job with `error` for every subscriber (the last preview they got stays theirs).
    func fail(_ error: ImageLoadingError) {
        guard !isDone else { return }
        isDone = true
        stopDownload()
        if error != .notCached { core.failures.record(error, for: request.url) }
        for subscriber in core.retire(self) { subscriber.mailbox?.finish(throwing: error) }
    }

    /// The last subscriber left: stop downloading and decoding (nobody is told anything).
    func cancel() {
        stopDownload()
        queue.async { self.isDone = true }
    }

    /// The loader is going away: subscribers get `CancellationError`, the work stops.
    func abort() {
        stopDownload()
        let subscribers = takeSubscribers()
        for subscriber in subscribers { subscriber.mailbox?.finish(throwing: CancellationError()) }
        queue.async { self.isDone = true }
    }

    /// Cancels the data task, if any, and ignores its later callbacks.
    func stopDownload() {
        let task = shared.withLock { shared -> URLSessionDataTask? in
            shared.isStopped = true
            let task = shared.task
            shared.task = nil
            return task
        }
        task?.cancel()
    }

    /// Sends `event` to the subscribers (previews only to those who want them).
    func broadcast(_ event: ImageLoadEvent) {
        let isPreview: Bool
        if case .preview = event { isPreview = true } else { isPreview = false }
        let mailboxes = shared.withLock { shared in
            shared.subscribers.values.compactMap { subscriber in
                (!isPreview || subscriber.wantsPreviews) ? subscriber.mailbox : nil
            }
        }
        for mailbox in mailboxes { mailbox.send(event) }
    }

    /// Whether any subscriber wants previews.
    var wantsPreviews: Bool { shared.withLock { $0.subscribers.values.contains { $0.wantsPreviews } } }
}
