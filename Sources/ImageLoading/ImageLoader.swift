import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

/// Loads images over http(s) or from files, showing them while they arrive.
///
/// ```swift
/// let loader = ImageLoader()
/// for try await event in loader.images(for: ImageRequest(url: url)) {
///     switch event {
///     case .progress(let received, let expected): print(received, expected ?? -1)
///     case .preview(let image): show(image)             // sharper each time
///     case .completed(let response): show(response.image)
///     }
/// }
/// ```
/// - One data task per resource (``ImageRequest/cacheKey``, by default the URL) does the cache
///   lookup, HTTP freshness and revalidation, download, resume, retries and the disk write;
///   one decode task per variant (size, transform, decoding options) decodes what it fans out.
///   Requests that differ only in variant share the download and the disk entry; requests that
///   agree on everything share the decode too. Cancelling one leaves the others running.
/// - At most `maxConcurrentDownloads` downloads and `maxConcurrentDecodes` decoders run at once;
///   the rest wait by priority. Previews are sent when the picture changed, at most once per
///   `previewInterval`, never decoded on the network's queue.
/// - Results go to a memory cache (decoded, LRU by bytes and count, with HTTP expiry) and a
///   disk cache (encoded bytes with their HTTP validators and freshness, checksummed, LRU by size).
public final class ImageLoader: Sendable {
    /// The settings this loader was made with.
    public let configuration: Configuration
    let core: LoaderCore

    /// Makes a loader with its own network session and caches.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        core = LoaderCore(configuration: configuration)
    }

    /// Cancels every load still running (their streams throw `CancellationError`) and ends the session.
    deinit { core.shutdown() }

    /// Starts loading and returns the running task: its events, `cancel()` and `setPriority(_:)`.
    public func task(for request: ImageRequest) -> ImageLoadTask {
        let mailbox = EventMailbox()
        let task = ImageLoadTask(request: request, mailbox: mailbox)
        guard let scheme = request.urlRequest.url?.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            mailbox.finish(throwing: ImageLoadingError.unsupportedURL(request.urlRequest.url?.absoluteString ?? ""))
            return task
        }
        let policy = request.cachePolicy
        var deliveredFromMemory = false
        if policy.readsMemory, let hit = core.memoryCache.image(for: request.resultKey) {
            if (hit.isFresh && policy != .refreshCached) || policy == .cacheOrFail {
                mailbox.send(.completed(ImageResponse(image: hit.image, source: .memoryCache, url: request.url)))
                mailbox.finish()
                return task
            }
            if policy == .refreshCached {
                mailbox.send(.completed(ImageResponse(image: hit.image, source: .memoryCache, url: request.url)))
                deliveredFromMemory = true
            }
        }
        if policy.usesNetwork, !request.retryFailed, let failure = core.failures.failure(for: request.url) {
            mailbox.finish(throwing: ImageLoadingError.previouslyFailed(failure))
            return task
        }
        if request.retryFailed { core.failures.forget(request.url) }
        guard let (decodeTask, subscriberID) = core.subscribe(request, mailbox: mailbox,
                                                              deliveredFromMemory: deliveredFromMemory) else {
            mailbox.finish(throwing: CancellationError())
            return task
        }
        // Weak captures: a task kept after its load ended must not keep the decode task (and its
        // decoder) alive.
        let core = self.core
        mailbox.setCancelHandler { [weak core, weak decodeTask] in
            guard let core, let decodeTask else { return }
            core.unsubscribe(decodeTask, subscriberID: subscriberID)
        }
        task.setPriorityHandler { [weak core, weak decodeTask] priority in
            guard let core, let decodeTask else { return }
            core.setPriority(priority, of: decodeTask, subscriberID: subscriberID)
        }
        // A cancel that raced ahead of the handler: unsubscribing twice is harmless.
        if mailbox.isCancelled { core.unsubscribe(decodeTask, subscriberID: subscriberID) }
        return task
    }

    /// The events of a new load of `request` (see ``ImageLoadEvent``). Cancelling the consuming
    /// task cancels the load.
    public func images(for request: ImageRequest) -> AsyncThrowingStream<ImageLoadEvent, any Error> {
        task(for: request).events
    }

    /// The events of a new load of `url` with default options.
    public func images(for url: URL) -> AsyncThrowingStream<ImageLoadEvent, any Error> {
        images(for: ImageRequest(url: url))
    }

    /// The final image of `request` (previews are not delivered; with
    /// ``ImageCachePolicy/refreshCached``, the first image delivered).
    ///
    /// - Throws: ``ImageLoadingError``, or `CancellationError` if the calling task is cancelled.
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        var quiet = request
        quiet.deliversPreviews = false
        for try await event in task(for: quiet).events {
            if case .completed(let response) = event { return response }
        }
        throw CancellationError()
    }

    /// The final image of `url` with default options.
    public func image(for url: URL) async throws -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// Loads `urls` into the caches in the background, at `priority` (default low).
    public func prefetch(_ urls: [URL], priority: ImagePriority = .low) {
        core.prefetch(urls, priority: priority)
    }

    /// Stops prefetching `urls`; loads someone else also asked for keep going.
    public func cancelPrefetch(_ urls: [URL]) {
        core.cancelPrefetch(urls)
    }

    /// While true, queued downloads do not start (running ones go on): set it while a list
    /// scrolls fast, clear it when it settles. Memory-cache answers are unaffected.
    public var isSuspended: Bool {
        get { core.isSuspended }
        set { core.isSuspended = newValue }
    }

    /// The decoded image for `request` if the memory cache has it (fresh or not).
    public func cachedImage(for request: ImageRequest) -> Image? {
        core.memoryCache.image(for: request.resultKey)?.image
    }

    /// Removes `request`'s resource from both caches: every decoded variant in memory and the
    /// encoded bytes (and any partial download) on disk.
    public func removeCachedImage(for request: ImageRequest) {
        core.memoryCache.removeAll(resource: request.resourceKey)
        core.diskCache?.remove(key: "data " + request.resourceKey, kind: .complete)
        core.diskCache?.remove(key: "data " + request.resourceKey, kind: .partial)
    }

    /// Empties the memory cache and the disk cache.
    public func removeAllCachedImages() {
        core.memoryCache.removeAll()
        core.diskCache?.removeAll()
    }

    /// Forgets every remembered failure, so failed URLs are fetched again.
    public func forgetFailures() {
        core.failures.forget(nil)
    }
}
