import Foundation

/// URLs whose last load failed, remembered for a while so a broken image on a busy page is not
/// fetched again and again (a refetch storm). A request with `retryFailed` bypasses it.
final class FailedURLMemory: Sendable {
    /// How long a failure is remembered.
    let duration: TimeInterval
    private let failures = LockedState([URL: (error: ImageLoadingError, date: Date)]())

    init(duration: TimeInterval) { self.duration = duration }

    /// The remembered failure for `url`, if recent enough.
    func failure(for url: URL, now: Date = Date()) -> ImageLoadingError? {
        failures.withLock { failures in
            guard let entry = failures[url] else { return nil }
            guard now.timeIntervalSince(entry.date) < duration else {
                failures[url] = nil
                return nil
            }
            return entry.error
        }
    }

    /// Remembers that `url` failed with `error`.
    func record(_ error: ImageLoadingError, for url: URL, now: Date = Date()) {
        failures.withLock { $0[url] = (error, now) }
    }

    /// Forgets `url` (after it loaded), or everything when `url` is nil.
    func forget(_ url: URL?) {
        failures.withLock { failures in
            if let url { failures[url] = nil } else { failures.removeAll() }
        }
    }
}
