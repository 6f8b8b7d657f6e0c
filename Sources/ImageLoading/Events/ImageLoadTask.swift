import IncrementalImage

/// A running load: its events, and controls to cancel it or change its priority.
///
/// Dropping every reference to the task and its ``events`` cancels the load too.
public final class ImageLoadTask: Sendable {
    /// The request as made (its priority is the one it started with).
    public let request: ImageRequest
    /// Progress, previews, then one `.completed` (two at most with ``ImageCachePolicy/refreshCached``), or a thrown error
    /// (``ImageLoadingError``, or `CancellationError` after ``cancel()``).
    ///
    /// Cancelling the task that iterates ends the iteration like any `AsyncThrowingStream`
    /// (`nil`, or `CancellationError` if it was waiting); the load stops for this consumer once
    /// the stream is released or ``cancel()`` is called.
    public let events: AsyncThrowingStream<ImageLoadEvent, any Error>

    let mailbox: EventMailbox
    private let priorityChange: LockedState<(@Sendable (ImagePriority) -> Void)?>

    init(request: ImageRequest, mailbox: EventMailbox) {
        self.request = request
        self.mailbox = mailbox
        self.events = AsyncThrowingStream(unfolding: { try await mailbox.next() })
        self.priorityChange = LockedState(nil)
    }

    /// Sets what ``setPriority(_:)`` does (the loader reorders its queue).
    func setPriorityHandler(_ handler: @escaping @Sendable (ImagePriority) -> Void) {
        priorityChange.withLock { $0 = handler }
    }

    /// Stops the load for this task: no event arrives after this returns. Other requests
    /// sharing the download keep going; the download stops when the last one is cancelled.
    public func cancel() {
        mailbox.cancel()
    }

    /// Moves the load in the download queue (it matters while the download waits for a slot).
    public func setPriority(_ priority: ImagePriority) {
        let handler = priorityChange.withLock { $0 }
        handler?(priority)
    }
}
