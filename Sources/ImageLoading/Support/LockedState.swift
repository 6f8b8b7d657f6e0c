import Foundation

/// A value guarded by a lock: the one way loader state is shared between threads.
///
/// `NSLock` rather than `Synchronization.Mutex` so the package also builds for macOS releases
/// before 15. Keep closures short: never call out to user code or block while holding it.
final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
