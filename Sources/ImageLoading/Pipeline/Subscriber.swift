/// One party waiting for a decode task: a consumer's mailbox, or a prefetch (which only fills the caches).
struct Subscriber {
    /// Weak: a consumer that drops its stream must not be kept alive by the task; the mailbox's
    /// deinit then unsubscribes it.
    weak var mailbox: EventMailbox?
    var priority: ImagePriority
    var wantsPreviews: Bool
}
