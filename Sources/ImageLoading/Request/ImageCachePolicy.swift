/// Which caches a request reads and writes.
public enum ImageCachePolicy: Sendable, Hashable {
    /// Memory cache, then disk cache, then the network; the result goes into both caches.
    case useCaches
    /// Always the network; the result still refreshes both caches.
    case reloadIgnoringCaches
    /// The memory cache, then the network; the disk cache is neither read nor written.
    case memoryCacheOnly
    /// Memory or disk cache only: fails with ``ImageLoadingError/notCached`` instead of loading.
    case cacheOrFail

    var readsMemory: Bool { self != .reloadIgnoringCaches }
    var readsDisk: Bool { self == .useCaches || self == .cacheOrFail }
    var writesDisk: Bool { self == .useCaches || self == .reloadIgnoringCaches }
    var usesNetwork: Bool { self != .cacheOrFail }
}
