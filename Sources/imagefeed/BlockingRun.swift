import Foundation

/// Runs an async command body from the synchronous command line entry point.
///
/// `ImagefeedCommand.run` stays synchronous (main.swift and the `decode` tests call it plainly);
/// `fetch` and `demo` are async because `ImageLoader` is. The body runs as a detached task on the
/// concurrency pool while the calling thread waits on a semaphore. That is safe because the
/// caller is never a pool thread: it is the main thread (main.swift, XCTest's synchronous tests).
enum BlockingRun {
    /// The exit status `body` returns.
    static func exitStatus(of body: @escaping @Sendable () async -> Int32) -> Int32 {
        let status = StatusBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            status.set(await body())
            done.signal()
        }
        done.wait()
        return status.value ?? 1
    }
}

/// The exit status handed from the task to the waiting thread.
private final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int32?

    func set(_ status: Int32) { lock.lock(); stored = status; lock.unlock() }

    var value: Int32? { lock.lock(); defer { lock.unlock() }; return stored }
}
