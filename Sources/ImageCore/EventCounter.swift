#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif
import Dispatch

/// A counting semaphore between two threads whose non-blocking ``tryTake()`` never enters the
/// kernel.
///
/// Why not `DispatchSemaphore`: its `wait(timeout: .now())` finding nothing does not return at
/// once on Linux. `.now()` is a time, not `DISPATCH_TIME_NOW`, so libdispatch goes to
/// `sem_timedwait` with a deadline just past, a futex wait that arms a timer and often
/// deschedules the thread. Polled once per block row by a progressive decode's scan thread while
/// a worker drew the picture behind it, that made the final scan take 23–25 ms instead of 15 ms
/// (3000×2000 4:2:0 on two cores: a worker that only spun slowed it as much, a worker pinned to
/// the other core did not help, an unrelated busy process beside it did not slow it at all).
/// Here polling is an uncontended mutex, and only ``take()`` on an empty count sleeps.
package final class EventCounter: @unchecked Sendable {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl) || canImport(Android)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Signals not taken yet; guarded by `mutex`.
    private var count = 0
    /// Threads asleep in ``take()``; guarded by `mutex`.
    private var sleepers = 0

    /// A counter at zero.
    package init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Adds one event, waking a thread asleep in ``take()``.
    package func signal() {
        pthread_mutex_lock(mutex)
        count += 1
        if sleepers > 0 { pthread_cond_signal(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Takes one event if there is one; never sleeps.
    package func tryTake() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard count > 0 else { return false }
        count -= 1
        return true
    }

    /// Takes one event, sleeping until there is one.
    package func take() {
        pthread_mutex_lock(mutex)
        while count == 0 {
            sleepers += 1
            pthread_cond_wait(condition, mutex)
            sleepers -= 1
        }
        count -= 1
        pthread_mutex_unlock(mutex)
    }
    #else
    private let semaphore = DispatchSemaphore(value: 0)

    /// A counter at zero.
    package init() {}

    /// Adds one event, waking a thread asleep in ``take()``.
    package func signal() { semaphore.signal() }

    /// Takes one event if there is one; never sleeps.
    package func tryTake() -> Bool { semaphore.wait(timeout: DispatchTime(uptimeNanoseconds: 0)) == .success }

    /// Takes one event, sleeping until there is one.
    package func take() { semaphore.wait() }
    #endif

    /// Takes one event, polling for up to `nanoseconds` before sleeping: a short wait for a
    /// thread about to finish costs no wake-up.
    package func take(spinningFor nanoseconds: UInt64) {
        if tryTake() { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + nanoseconds
        repeat {
            if tryTake() { return }
        } while DispatchTime.now().uptimeNanoseconds < deadline
        take()
    }
}
