/// Decides when a preview is worth rendering: only when the decoder's preview generation changed,
/// and at most once per interval. Times are monotonic nanoseconds (e.g. `DispatchTime.uptimeNanoseconds`).
///
/// Example with a 100 ms interval: generation 3 delivered at t = 0; generation 5 seen at
/// t = 40 ms gives `.wait(until: 100 ms)`; at t = 100 ms `.renderNow` (generation 5, or newer).
///
/// While more bytes are already queued behind the decoder (`backlog`), a preview would be out of
/// date as soon as it was drawn, so the change waits (`.behindInput`) for the drain of those bytes;
/// a fast link then costs no preview renders at all. A decoder that stays behind still shows
/// progress: a change that has waited ``backlogAllowance`` is rendered anyway.
struct PreviewThrottle {
    /// What to do now.
    enum Decision: Equatable {
        /// Render and deliver the current picture.
        case renderNow
        /// Something new, but too soon: check again at this time.
        case wait(until: UInt64)
        /// The picture has not changed since the last preview.
        case nothingNew
        /// Something new, but more input is queued: the next drain decides.
        case behindInput
    }

    /// How long a change may wait behind queued input before it is rendered anyway (100 ms).
    static let backlogAllowance: UInt64 = 100_000_000

    /// Minimum time between two previews, in nanoseconds.
    let interval: UInt64
    private var deliveredGeneration = 0
    private var lastDelivery: UInt64?
    /// When a change first waited behind queued input (nil once delivered).
    private var waitingBehindInputSince: UInt64?

    init(intervalNanoseconds: UInt64) { interval = intervalNanoseconds }

    /// The decision for a decoder now at `generation`; `backlog`: more input is already queued.
    mutating func decide(generation: Int, now: UInt64, backlog: Bool = false) -> Decision {
        guard generation != deliveredGeneration else { return .nothingNew }
        if backlog {
            let since = waitingBehindInputSince ?? now
            waitingBehindInputSince = since
            if now &- since < Self.backlogAllowance { return .behindInput }
        }
        guard let lastDelivery else { return .renderNow }
        let due = lastDelivery &+ interval
        return now >= due ? .renderNow : .wait(until: due)
    }

    /// Notes that the picture of `generation` was delivered at `now`.
    mutating func didDeliver(generation: Int, at now: UInt64) {
        deliveredGeneration = generation
        lastDelivery = now
        waitingBehindInputSince = nil
    }
}
