import Foundation
import IncrementalImage

/// One variant of a resource (``DecodeKey``): an incremental decoder fed from a ``DataTask``,
/// previews paced by ``PreviewThrottle``, the memory-cache write and the events of every
/// subscriber that asked for this exact result.
///
/// Bytes arrive on the data task's queue and are only queued here (``receive(_:)``); decoding,
/// previews and delivery run on ``queue``, checked with `dispatchPrecondition`. A decoder exists
/// only while the task holds one of the core's decoder slots, and is released the moment the
/// task ends, whoever still holds its ``ImageLoadTask``.
final class DecodeTask: @unchecked Sendable {
    let key: DecodeKey
    let request: ImageRequest
    let core: LoaderCore
    let queue: DispatchQueue
    /// Where the bytes come from; nil once this task has ended (so an ended task keeps nothing alive).
    var dataTask: DataTask? { shared.withLock { $0.dataTask } }

    /// Where decoding stands; each case carries what only holds then.
    private enum Phase {
        /// No decoder slot yet: events wait in the inbox.
        case waitingForSlot(requested: Bool)
        /// Holding a slot.
        case decoding(Decoding)
        /// Delivered, failed or cancelled.
        case ended
    }

    /// The working state of a task that holds a decoder slot.
    private struct Decoding {
        /// The current body's decoder (nil before the first body starts).
        var decoder: StreamingDecoder?
        var throttle: PreviewThrottle
        var received = 0
        var expectedLength: Int?
        /// ``ImageCachePolicy/refreshCached`` after the cached image went out: the new body is
        /// only collected, and decoded at the end if the server sent something different.
        var refreshBody: [Data]?
        var previewCheckScheduled = false
    }

    private struct Shared {
        var subscribers: [Int: Subscriber] = [:]
        var accepting = true
        var inbox: [ResourceEvent] = []
        var drainScheduled = false
        var dataTask: DataTask?
    }

    private let shared: LockedState<Shared>
    // Queue-confined:
    private var phase = Phase.waitingForSlot(requested: false)
    /// The cached image already delivered (refreshCached), to tell whether the new one differs.
    private var deliveredCachedImage: Image?
    private let started = Date()

    /// When the load that created this task was asked for: the decoder queue's order within one priority.
    let arrival: Int

    init(core: LoaderCore, key: DecodeKey, request: ImageRequest, dataTask: DataTask, arrival: Int, deliveredFromMemory: Bool) {
        self.core = core
        self.key = key
        self.request = request
        self.arrival = arrival
        shared = LockedState(Shared(dataTask: dataTask))
        queue = DispatchQueue(label: "ImageLoading.decode", target: core.decodingQueue)
        if deliveredFromMemory { deliveredCachedImage = core.memoryCache.image(for: key.result)?.image }
    }

    static var uptime: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Subscribers (called by the core under its lock)

    /// Adds a subscriber; false if the task has ended.
    func addSubscriber(id: Int, _ subscriber: Subscriber) -> Bool {
        shared.withLock { shared in
            guard shared.accepting else { return false }
            shared.subscribers[id] = subscriber
            return true
        }
    }

    /// Removes a subscriber; true if it was the last one (the task then stops accepting).
    func removeSubscriber(id: Int) -> Bool {
        shared.withLock { shared in
            guard shared.accepting, shared.subscribers.removeValue(forKey: id) != nil, shared.subscribers.isEmpty else {
                return false
            }
            shared.accepting = false
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

    /// Ends the subscriber list for good, drops the link to the data task, returns the subscribers.
    func takeSubscribers() -> [Subscriber] {
        shared.withLock { shared in
            shared.accepting = false
            shared.dataTask = nil
            shared.inbox = []
            let subscribers = Array(shared.subscribers.values)
            shared.subscribers = [:]
            return subscribers
        }
    }

    private var wantsPreviews: Bool { shared.withLock { $0.subscribers.values.contains { $0.wantsPreviews } } }

    // MARK: Input (data task's queue)

    /// Queues an event from the data task; the decode queue drains the inbox.
    func receive(_ event: ResourceEvent) {
        let schedule = shared.withLock { shared -> Bool in
            guard shared.accepting else { return false }
            shared.inbox.append(event)
            defer { shared.drainScheduled = true }
            return !shared.drainScheduled
        }
        if schedule { queue.async { self.drain() } }
    }

    /// The core granted a decoder slot.
    func slotGranted() {
        queue.async {
            guard case .waitingForSlot = self.phase else { return }
            let interval = UInt64(max(self.core.configuration.previewInterval, 0) * 1e9)
            self.phase = .decoding(Decoding(throttle: PreviewThrottle(intervalNanoseconds: interval)))
            self.drain()
        }
    }

    /// The last subscriber left: stop at once, release the decoder.
    func cancel() {
        queue.async { self.end() }
    }

    /// The loader is going away: subscribers get `CancellationError`.
    func abort() {
        queue.async {
            guard !self.isEnded else { return }
            self.phase = .ended
            for subscriber in self.core.decodeTaskEnded(self) {
                subscriber.mailbox?.finish(throwing: CancellationError())
            }
        }
    }

    // MARK: Decoding (own queue)

    private var isEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    private func drain() {
        dispatchPrecondition(condition: .onQueue(queue))
        switch phase {
        case .ended:
            return
        case .waitingForSlot(let requested):
            shared.withLock { $0.drainScheduled = false }
            if !requested {
                phase = .waitingForSlot(requested: true)
                core.requestDecodeSlot(self)
            }
            return
        case .decoding:
            break
        }
        let events = shared.withLock { shared -> [ResourceEvent] in
            let events = shared.inbox
            shared.inbox = []
            shared.drainScheduled = false
            return events
        }
        var sawBytes = false
        for event in events {
            guard case .decoding(var state) = phase else { return }
            switch event {
            case .cachedCopy(let data):
                deliverCachedCopy(data)
            case .bodyStarted(let expected):
                state.expectedLength = expected
                state.received = 0
                if deliveredCachedImage != nil {
                    state.refreshBody = []
                    state.decoder = nil
                } else {
                    state.decoder = StreamingDecoder(options: request.decodingOptions, registry: core.configuration.decoders,
                                                     maxPixelSize: request.maxPixelSize,
                                                     appliesOrientation: request.appliesOrientation)
                }
                phase = .decoding(state)
            case .bytes(let data):
                state.received += data.count
                state.refreshBody?.append(data)
                phase = .decoding(state)
                sawBytes = true
                if let decoder = state.decoder {
                    do {
                        try data.withUnsafeBytes { try decoder.feed($0) }
                        if request.deliversFrames { deliverFrames(from: decoder) }
                    } catch {
                        return fail(Self.decodingFailure(error))
                    }
                }
            case .finished(let outcome):
                if sawBytes, state.refreshBody == nil {
                    broadcast(.progress(received: state.received, expected: state.expectedLength))
                }
                return complete(state, outcome: outcome)
            case .failed(let error):
                // A refresh that failed after the cached image went out is not the caller's failure.
                if deliveredCachedImage != nil { return end(finishing: true) }
                return fail(error)
            }
        }
        guard sawBytes, case .decoding(let state) = phase else { return }
        if state.refreshBody == nil {
            broadcast(.progress(received: state.received, expected: state.expectedLength))
        }
        // Bytes that arrived while these were decoded make a preview now out of date at once.
        considerPreview(backlog: shared.withLock { !$0.inbox.isEmpty })
    }

    /// Sends every animation frame the decoder has completed (frames are pulled, so the decoder
    /// holds at most the canvas and one previous canvas).
    private func deliverFrames(from decoder: StreamingDecoder) {
        while let frame = decoder.nextFrame() { broadcast(.frame(frame)) }
    }

    /// refreshCached: decode and deliver the disk cache's copy (unless memory already delivered it).
    private func deliverCachedCopy(_ data: Data) {
        guard deliveredCachedImage == nil else { return }
        let decoder = StreamingDecoder(options: request.decodingOptions, registry: core.configuration.decoders,
                                       maxPixelSize: request.maxPixelSize, appliesOrientation: request.appliesOrientation)
        guard (try? data.withUnsafeBytes({ try decoder.feed($0) })) != nil, let decoded = try? decoder.finish(),
              let image = try? transformed(decoded) else { return }
        deliveredCachedImage = image
        core.memoryCache.insert(image, for: key.result, expiry: nil)
        broadcast(.completed(ImageResponse(image: image, source: .diskCache, url: request.url,
                                           timings: ImageLoadTimings(started: started))))
    }

    private func transformed(_ image: Image) throws -> Image {
        guard let transform = request.transform else { return image }
        do { return try transform.apply(image) } catch { throw ImageLoadingError.transformFailed(String(describing: error)) }
    }

    /// The body is complete: the final image goes to the memory cache and every subscriber.
    private func complete(_ state: Decoding, outcome: ResourceOutcome) {
        // refreshCached and the server confirmed what was already delivered: nothing more to say.
        if deliveredCachedImage != nil, outcome.matchesCachedCopy { return end(finishing: true) }
        if let refreshBody = state.refreshBody {
            let decoder = StreamingDecoder(options: request.decodingOptions, registry: core.configuration.decoders,
                                           maxPixelSize: request.maxPixelSize, appliesOrientation: request.appliesOrientation)
            do {
                for piece in refreshBody { try piece.withUnsafeBytes { try decoder.feed($0) } }
                return deliverFinal(try decoder.finish(), outcome: outcome)
            } catch {
                // The cached image stands; a broken refresh is not delivered.
                return end(finishing: true)
            }
        }
        guard let decoder = state.decoder else {
            return fail(.decoding(ImageDecodingError(.truncated, at: 0, "the response had no body")))
        }
        do {
            let image = try decoder.finish()
            if request.deliversFrames { deliverFrames(from: decoder) }
            deliverFinal(image, outcome: outcome)
        } catch {
            fail(Self.decodingFailure(error))
        }
    }

    private func deliverFinal(_ decoded: Image, outcome: ResourceOutcome) {
        let image: Image
        do { image = try transformed(decoded) } catch {
            return fail(error as? ImageLoadingError ?? .transformFailed(String(describing: error)))
        }
        if let cached = deliveredCachedImage, cached == image { return end(finishing: true) }
        core.memoryCache.insert(image, for: key.result, expiry: outcome.expiry)
        let response = ImageResponse(image: image, source: outcome.source, url: request.url, httpStatus: outcome.httpStatus,
                                     headers: outcome.headers,
                                     timings: ImageLoadTimings(started: started, firstByte: outcome.firstByte, finished: Date()))
        phase = .ended
        for subscriber in core.decodeTaskEnded(self) {
            subscriber.mailbox?.send(.completed(response))
            subscriber.mailbox?.finish()
        }
    }

    /// Wraps what a decoder threw (always an ``ImageDecodingError`` by the protocol's contract).
    static func decodingFailure(_ error: any Error) -> ImageLoadingError {
        .decoding(error as? ImageDecodingError ?? ImageDecodingError(.internal, at: nil, String(describing: error)))
    }

    /// Ends the task with `error` for every subscriber (the last preview they got stays theirs).
    private func fail(_ error: ImageLoadingError) {
        guard !isEnded else { return }
        phase = .ended
        for subscriber in core.decodeTaskEnded(self) { subscriber.mailbox?.finish(throwing: error) }
    }

    /// Ends the task; with `finishing`, subscribers' streams end normally (refreshCached with
    /// nothing new), else nobody is told (cancelled).
    private func end(finishing: Bool = false) {
        guard !isEnded else { return }
        phase = .ended
        let subscribers = core.decodeTaskEnded(self)
        if finishing { for subscriber in subscribers { subscriber.mailbox?.finish() } }
    }

    // MARK: Previews

    /// Sends a preview if the picture changed and the interval allows; otherwise, if it changed,
    /// checks again when the interval ends. With `backlog` (more bytes already queued) the change
    /// waits for their drain, up to ``PreviewThrottle/backlogAllowance``.
    private func considerPreview(backlog: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .decoding(var state) = phase, let decoder = state.decoder, !decoder.isComplete, wantsPreviews else { return }
        let now = Self.uptime
        let decision = state.throttle.decide(generation: decoder.previewGeneration, now: now, backlog: backlog)
        phase = .decoding(state)  // the throttle remembers when a change began waiting behind input
        switch decision {
        case .nothingNew, .behindInput:
            return
        case .renderNow:
            guard let image = decoder.preview() else { return }
            state.throttle.didDeliver(generation: decoder.previewGeneration, at: now)
            phase = .decoding(state)
            broadcast(.preview(image))
        case .wait(let due):
            guard !state.previewCheckScheduled else { return }
            state.previewCheckScheduled = true
            phase = .decoding(state)
            // Weak: an ended task must not wait for its last preview check.
            queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [weak self] in
                guard let self, case .decoding(var state) = self.phase else { return }
                state.previewCheckScheduled = false
                self.phase = .decoding(state)
                self.considerPreview()
            }
        }
    }

    /// Sends `event` to the subscribers (previews only to those who want them).
    private func broadcast(_ event: ImageLoadEvent) {
        let isPreview: Bool
        if case .preview = event { isPreview = true } else { isPreview = false }
        let mailboxes = shared.withLock { shared in
            shared.subscribers.values.compactMap { subscriber in
                (!isPreview || subscriber.wantsPreviews) ? subscriber.mailbox : nil
            }
        }
        for mailbox in mailboxes { mailbox.send(event) }
    }
}
