/// Which caches a request reads and writes.
public enum ImageCachePolicy: Sendable, Hashable {
    /// Memory cache, then disk cache, then the network, following HTTP caching: a fresh entry is
    /// used as it is, a stale one is revalidated (`If-None-Match` / `If-Modified-Since`; `304`
    /// serves the cached bytes). The result goes into both caches (`no-store`: not to disk).
    case useCaches
    /// Always the network; the result still refreshes both caches.
    case reloadIgnoringCaches
    /// The memory cache, then the network; the disk cache is neither read nor written.
    case memoryCacheOnly
    /// Memory or disk cache only (fresh or not): fails with ``ImageLoadingError/notCached`` instead of loading.
    case cacheOrFail
    /// Delivers any cached image at once (`.completed` from memory or disk), then always asks the
    /// server (conditionally where the entry has validators) and delivers a second `.completed`
    /// only if the server sent a different image. Without a cached image it loads like ``useCaches``.
    case refreshCached

    var readsMemory: Bool { self != .reloadIgnoringCaches }
    var readsDisk: Bool { self == .useCaches || self == .cacheOrFail || self == .refreshCached }
    var writesDisk: Bool { self == .useCaches || self == .reloadIgnoringCaches || self == .refreshCached }
    var usesNetwork: Bool { self != .cacheOrFail }
}
