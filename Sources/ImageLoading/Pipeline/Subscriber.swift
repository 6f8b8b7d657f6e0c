/// One party waiting for a job: a consumer's mailbox, or a prefetch (which only fills the caches).
struct Subscriber {
    /// Weak: a consumer that drops its stream must not be kept alive by the job; the mailbox's
    /// deinit then unsubscribes it.
    weak var mailbox: EventMailbox?
    var priority: ImagePriority
    var wantsPreviews: Bool
}
