import Foundation
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
/// - Bytes go to the request's decoder as they arrive (never decoded on URLSession's queue);
///   previews are sent when the picture changed, at most once per `previewInterval`.
/// - Requests with the same URL and options share one download and one decode; cancelling one
///   leaves the others running; the download stops when the last one is cancelled.
/// - At most `maxConcurrentDownloads` run at once; the rest wait by priority.
/// - Results go to a memory cache (decoded, LRU by bytes) and a disk cache (encoded bytes,
///   checksummed, LRU by size); failed URLs are remembered; broken downloads resume with `Range`.
public final class ImageLoader: Sendable {
    /// The settings this loader was made with.
    public let configuration: Configuration
    let core: LoaderCore

    /// Makes a loader with its own URL session and caches.
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
        guard let scheme = request.url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            mailbox.finish(throwing: ImageLoadingError.unsupportedURL(request.url.absoluteString))
            return task
        }
        let policy = request.cachePolicy
        if policy.readsMemory, let image = core.memoryCache.image(for: request.resultKey) {
            mailbox.send(.completed(ImageResponse(image: image, source: .memoryCache, url: request.url)))
            mailbox.finish()
            return task
        }
        if policy.usesNetwork, !request.retryFailed, let failure = core.failures.failure(for: request.url) {
            mailbox.finish(throwing: ImageLoadingError.previouslyFailed(failure))
            return task
        }
        if request.retryFailed { core.failures.forget(request.url) }
        guard let (job, subscriberID) = core.subscribe(request, mailbox: mailbox) else {
            mailbox.finish(throwing: CancellationError())
            return task
        }
        let core = self.core
        mailbox.setCancelHandler { [weak core] in core?.unsubscribe(job, subscriberID: subscriberID) }
        task.setPriorityHandler { [weak core] priority in core?.setPriority(priority, of: job, subscriberID: subscriberID) }
        // A cancel that raced ahead of the handler: unsubscribing twice is harmless.
        if mailbox.isCancelled { core.unsubscribe(job, subscriberID: subscriberID) }
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

    /// The final image of `request` (previews are not delivered).
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

    /// The decoded image for `request` if the memory cache has it.
    public func cachedImage(for request: ImageRequest) -> Image? {
        core.memoryCache.image(for: request.resultKey)
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
