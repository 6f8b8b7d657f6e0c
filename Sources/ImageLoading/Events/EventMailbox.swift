import IncrementalImage

/// The hand-over point between a job and one consumer of ``ImageLoader/images(for:)``.
///
/// The job ``send(_:)``s from its queue; the consumer pulls with ``next()``. Nothing piles up
/// behind a slow consumer: a newer progress replaces a pending progress and a newer preview
/// replaces a pending preview (the newest wins), so at most a progress, a preview and the final
/// event wait here, plus the animation frames of a request that asked for them (never dropped). After ``cancel()`` nothing more is delivered, not even what was pending.
final class EventMailbox: Sendable {
    private enum End {
        case finished
        case failed(any Error)
        case cancelled
    }

    private struct State {
        var pending: [ImageLoadEvent] = []
        var waiter: CheckedContinuation<ImageLoadEvent?, any Error>?
        var end: End?
        /// Whether `next()` has already reported the end (later calls return nil).
        var endReported = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let state = LockedState(State())

    deinit {
        // A consumer that dropped the stream without cancelling still releases the job.
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.end == nil ? state.onCancel : nil
        }
        handler?()
    }

    /// Sets what runs (once, outside any lock) when the consumer cancels or goes away.
    func setCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = handler }
    }

    /// Whether the consumer cancelled.
    var isCancelled: Bool {
        state.withLock { state in
            if case .cancelled = state.end { return true }
            return false
        }
    }

    /// Queues `event` (replacing a pending event of the same kind for progress and previews),
    /// or hands it straight to a waiting consumer.
    func send(_ event: ImageLoadEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<ImageLoadEvent?, any Error>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            switch event {
            case .progress:
                state.pending.removeAll { if case .progress = $0 { return true } else { return false } }
            case .preview:
                state.pending.removeAll { if case .preview = $0 { return true } else { return false } }
            case .completed, .frame:
                break  // never dropped
            }
            state.pending.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// Ends the stream after the pending events: normally, or by throwing `error`.
    func finish(throwing error: (any Error)? = nil) {
        let waiter = state.withLock { state -> CheckedContinuation<ImageLoadEvent?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failed($0) } ?? .finished
            state.onCancel = nil
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.endReported = true
            return waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// Stops delivery at once: pending events are dropped and the consumer's `next()` throws
    /// `CancellationError`. Runs the cancel handler if the load was still going.
    func cancel() {
        let (waiter, handler) = state.withLock { state -> (CheckedContinuation<ImageLoadEvent?, any Error>?, (@Sendable () -> Void)?) in
            state.pending.removeAll()
            let handler = state.end == nil ? state.onCancel : nil
            if state.end == nil || !state.endReported { state.end = .cancelled }
            state.onCancel = nil
            let waiter = state.waiter
            state.waiter = nil
            if waiter != nil { state.endReported = true }
            return (waiter, handler)
        }
        waiter?.resume(throwing: CancellationError())
        handler?()
    }

    /// The next event; nil after the end; throws the load's error or `CancellationError` once.
    func next() async throws -> ImageLoadEvent? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ImageLoadEvent?, any Error>) in
                let ready = state.withLock { state -> Result<ImageLoadEvent?, any Error>? in
                    if !state.pending.isEmpty { return .success(state.pending.removeFirst()) }
                    if let end = state.end {
                        if state.endReported { return .success(nil) }
                        state.endReported = true
                        switch end {
                        case .finished: return .success(nil)
                        case .failed(let error): return .failure(error)
                        case .cancelled: return .failure(CancellationError())
                        }
                    }
                    // One consumer at a time: a second concurrent `next()` just sees the end.
                    if state.waiter != nil { return .success(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }
}
