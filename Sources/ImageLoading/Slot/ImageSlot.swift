import Foundation
import IncrementalImage

/// One view or cell that shows one image at a time: the binding that makes cell reuse safe.
///
/// ```swift
/// // in cellForRow / prepareForReuse
/// cell.slot.load(ImageRequest(url: item.url, maxPixelSize: 200)) { event in
///     switch event {
///     case .preview(let image): cell.show(image)
///     case .completed(let response): cell.show(response.image, fadeIn: response.isFromNetwork)
///     case .failed: cell.showPlaceholder()
///     case .progress: break
///     }
/// }
/// ```
/// - ``load(_:_:)`` cancels the slot's previous load first, and never delivers an event of an
///   older load, even one already on its way to the callback queue (a generation sentinel).
/// - When the memory cache has the image, the handler runs *synchronously*, before `load`
///   returns, so a reused cell shows it in the same frame: no placeholder flicker.
/// - Other events arrive on ``callbackQueue`` (default: the main queue).
public final class ImageSlot: Sendable {
    /// What a slot's handler receives for one load.
    public enum Event: Sendable {
        /// Bytes received so far, and the total if known.
        case progress(received: Int, expected: Int?)
        /// A sharper picture while the image arrives.
        case preview(Image)
        /// The next animation frame (requests with ``ImageRequest/deliversFrames``).
        case frame(AnimationFrame)
        /// The image (``ImageResponse/isFromNetwork`` says whether to fade it in). With
        /// ``ImageCachePolicy/refreshCached`` a second one follows if the server had a newer image.
        case completed(ImageResponse)
        /// The load failed (never sent for a cancelled load).
        case failed(any Error)
    }

    /// The loader this slot loads with.
    public let loader: ImageLoader
    /// Where handlers run (except a memory-cache answer, which runs synchronously in `load`).
    public let callbackQueue: DispatchQueue

    private struct State {
        var generation = 0
        var task: ImageLoadTask?
        var request: ImageRequest?
    }

    private let state = LockedState(State())

    /// Makes a slot for one view.
    public init(loader: ImageLoader, callbackQueue: DispatchQueue = .main) {
        self.loader = loader
        self.callbackQueue = callbackQueue
    }

    deinit { cancel() }

    /// The request of the current load (nil after ``cancel()`` or before the first load).
    public var request: ImageRequest? { state.withLock { $0.request } }

    /// Cancels the previous load and starts `request`. Returns true if the image came from the
    /// memory cache and `handler` has already run with `.completed` (nothing else will follow,
    /// except with ``ImageCachePolicy/refreshCached``).
    @discardableResult
    public func load(_ request: ImageRequest, _ handler: @escaping @Sendable (Event) -> Void) -> Bool {
        let (generation, previous) = state.withLock { state -> (Int, ImageLoadTask?) in
            state.generation += 1
            let previous = state.task
            state.task = nil
            state.request = request
            return (state.generation, previous)
        }
        previous?.cancel()
        if request.cachePolicy != .reloadIgnoringCaches, request.cachePolicy != .refreshCached,
           let hit = loader.core.memoryCache.image(for: request.resultKey), hit.isFresh {
            handler(.completed(ImageResponse(image: hit.image, source: .memoryCache, url: request.url)))
            return true
        }
        let task = loader.task(for: request)
        let stillCurrent = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            state.task = task
            return true
        }
        guard stillCurrent else {
            task.cancel()
            return false
        }
        // The generation is checked on the callback queue right before each handler call, so a
        // reload in between drops the older load's events.
        let queue = callbackQueue, state = self.state
        @Sendable func isCurrent() -> Bool { state.withLock { $0.generation == generation } }
        Task {
            do {
                for try await event in task.events {
                    let forwarded: Event
                    switch event {
                    case .progress(let received, let expected): forwarded = .progress(received: received, expected: expected)
                    case .preview(let image): forwarded = .preview(image)
                    case .frame(let frame): forwarded = .frame(frame)
                    case .completed(let response): forwarded = .completed(response)
                    }
                    queue.async { if isCurrent() { handler(forwarded) } }
                }
            } catch is CancellationError {
                return
            } catch {
                queue.async { if isCurrent() { handler(.failed(error)) } }
            }
        }
        return false
    }

    /// Cancels the current load; its events stop at once.
    public func cancel() {
        let task = state.withLock { state -> ImageLoadTask? in
            state.generation += 1
            state.request = nil
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }
}
