import Dispatch

/// Who runs each job of a queue that a worker takes in order: the worker, or the thread that
/// submitted it and now needs it done.
///
/// Why: a caller that waits for a job the worker has not even started waits for the scheduler.
/// On a machine whose other cores are busy (another process, other decodes) the worker may not
/// run for a whole time slice, and a two-thread decode then took 1.3–2.5× as long as one thread.
/// Jobs are numbered 0, 1, 2, … in submission order; the worker claims them one at a time, in
/// order, before it starts each; the caller may claim every job from the oldest one it waits for
/// on, but only while the worker has not claimed that one, so the worker then runs nothing the
/// caller's jobs depend on, and nothing at all until the caller submits again.
package final class JobClaims: @unchecked Sendable {
    /// A lock: an uncontended `wait()` and `signal()` are one atomic operation each (only a
    /// timed wait that finds nothing is slow on Linux, see ``EventCounter``).
    private let lock = DispatchSemaphore(value: 1)
    /// Jobs before this one are claimed; guarded by `lock`.
    private var nextUnclaimed = 0

    /// No job claimed yet.
    package init() {}

    private func withLock<T>(_ body: () -> T) -> T {
        lock.wait()
        defer { lock.signal() }
        return body()
    }

    /// The worker, about to run job `job` (the one after the last it met): whether it is the
    /// worker's to run, false when the caller took it.
    package func claimForWorker(_ job: Int) -> Bool {
        withLock {
            guard nextUnclaimed == job else { return false }
            nextUnclaimed += 1
            return true
        }
    }

    /// The caller, waiting for job `oldest`: claims it and every later job before `end` if the
    /// worker has not started `oldest`; returns whether it did (the caller then runs them all).
    package func claimForCaller(from oldest: Int, to end: Int) -> Bool {
        withLock {
            guard nextUnclaimed <= oldest else { return false }
            nextUnclaimed = max(end, nextUnclaimed)
            return true
        }
    }
}
