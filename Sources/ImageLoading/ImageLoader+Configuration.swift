import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

extension ImageLoader {
    /// How a loader downloads, caches and paces its work. Every field has a working default.
    ///
    /// `@unchecked Sendable` because of ``sessionConfiguration`` (a class): the loader copies it
    /// when it is made and never changes it.
    public struct Configuration: @unchecked Sendable {
        /// Downloads running at once; more wait in a priority queue. Default: the number of cores.
        public var maxConcurrentDownloads: Int
        /// Decoders working at once; more wait (holding only encoded bytes) by priority. This
        /// bounds memory: peak ≈ memory cache + decoders × one decoder's working set. Default: cores.
        public var maxConcurrentDecodes: Int
        /// Least time between two previews of one load (default 0.1 s).
        public var previewInterval: TimeInterval
        /// Largest total of decoded pixel bytes in the memory cache (default 1/8 of physical memory, at most 1 GiB).
        public var memoryCacheCostLimit: Int
        /// Largest number of images in the memory cache (default: unbounded).
        public var memoryCacheCountLimit: Int
        /// Where encoded images are cached; nil disables the disk cache (and resuming downloads).
        public var diskCacheDirectory: URL?
        /// Largest total size of the disk cache's files (default 256 MiB).
        public var diskCacheSizeLimit: Int
        /// Disk entries stored (or last revalidated) longer ago than this are dropped, whatever
        /// their HTTP freshness (default nil: no limit).
        public var diskCacheMaxAge: TimeInterval?
        /// Freshness lifetime for responses that give none (no `Cache-Control: max-age`, no
        /// `Expires`). Nil (default): the RFC 9111 heuristic (10% of the age since
        /// `Last-Modified`), and a response without any validator stays fresh until evicted.
        public var defaultMaxAge: TimeInterval?
        /// A download that receives nothing for this long fails with ``ImageLoadingError/timedOut`` (default 30 s).
        public var idleTimeout: TimeInterval
        /// A download still running after this long fails with ``ImageLoadingError/timedOut`` (default 5 min).
        public var totalTimeout: TimeInterval
        /// Largest response body accepted (default 256 MiB).
        public var maximumBodySize: Int
        /// How long a failed URL is answered from memory instead of fetched again (default 60 s).
        public var failureMemoryDuration: TimeInterval
        /// When transient failures are retried (default: twice, with backoff).
        public var retryPolicy: RetryPolicy
        /// The formats the loader can decode.
        public var decoders: ImageDecoderRegistry
        /// The URLSession settings: default headers (`httpAdditionalHeaders`), cookie storage,
        /// proxies, protocol classes, TLS settings. URLCache is always turned off (the loader
        /// caches by HTTP rules itself). Default: `.ephemeral`.
        public var sessionConfiguration: URLSessionConfiguration
        /// Runs before every request goes out (retries included), e.g. to attach a fresh token;
        /// throwing fails the load with ``ImageLoadingError/requestModifierFailed(_:)``.
        public var requestModifier: (@Sendable (URLRequest) async throws -> URLRequest)?
        /// Answers authentication challenges: HTTP auth, client certificates, custom server trust.
        public var authenticationChallengeHandler: URLSessionDataLoader.ChallengeHandler?
        /// **For testing only**: accept any TLS certificate (self-signed test servers). On Linux,
        /// where FoundationNetworking gives no server-trust object, it has no effect: use
        /// `authenticationChallengeHandler` there.
        public var allowsInvalidCertificates: Bool
        /// Redirects followed for one request (default 10); see ``ImageLoadingError/tooManyRedirects(limit:url:)``.
        public var maximumRedirects: Int
        /// The network below the loader; nil (default) makes a ``URLSessionDataLoader`` from the
        /// settings above. Tests give a scripted one.
        public var dataLoader: (any DataLoading)?

        /// The default disk cache folder: `<user caches>/ImageLoading`.
        public static var defaultDiskCacheDirectory: URL? {
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.appendingPathComponent("ImageLoading")
        }

        /// Makes a configuration.
        public init(maxConcurrentDownloads: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
                    previewInterval: TimeInterval = 0.1,
                    memoryCacheCostLimit: Int = Int(min(ProcessInfo.processInfo.physicalMemory / 8, 1 << 30)),
                    memoryCacheCountLimit: Int = .max,
                    diskCacheDirectory: URL? = Configuration.defaultDiskCacheDirectory,
                    diskCacheSizeLimit: Int = 256 << 20, diskCacheMaxAge: TimeInterval? = nil,
                    defaultMaxAge: TimeInterval? = nil,
                    idleTimeout: TimeInterval = 30, totalTimeout: TimeInterval = 300,
                    maximumBodySize: Int = 256 << 20,
                    failureMemoryDuration: TimeInterval = 60, retryPolicy: RetryPolicy = RetryPolicy(),
                    decoders: ImageDecoderRegistry = .standard,
                    sessionConfiguration: URLSessionConfiguration = .ephemeral,
                    requestModifier: (@Sendable (URLRequest) async throws -> URLRequest)? = nil,
                    authenticationChallengeHandler: URLSessionDataLoader.ChallengeHandler? = nil,
                    allowsInvalidCertificates: Bool = false, maximumRedirects: Int = 10,
                    dataLoader: (any DataLoading)? = nil) {
            self.maxConcurrentDownloads = max(maxConcurrentDownloads, 1)
            self.maxConcurrentDecodes = max(maxConcurrentDecodes, 1)
            self.previewInterval = previewInterval
            self.memoryCacheCostLimit = memoryCacheCostLimit
            self.memoryCacheCountLimit = max(memoryCacheCountLimit, 0)
            self.diskCacheDirectory = diskCacheDirectory
            self.diskCacheSizeLimit = diskCacheSizeLimit
            self.diskCacheMaxAge = diskCacheMaxAge
            self.defaultMaxAge = defaultMaxAge
            self.idleTimeout = idleTimeout
            self.totalTimeout = totalTimeout
            self.maximumBodySize = maximumBodySize
            self.failureMemoryDuration = failureMemoryDuration
            self.retryPolicy = retryPolicy
            self.decoders = decoders
            self.sessionConfiguration = sessionConfiguration
            self.requestModifier = requestModifier
            self.authenticationChallengeHandler = authenticationChallengeHandler
            self.allowsInvalidCertificates = allowsInvalidCertificates
            self.maximumRedirects = maximumRedirects
            self.dataLoader = dataLoader
        }
    }
}
