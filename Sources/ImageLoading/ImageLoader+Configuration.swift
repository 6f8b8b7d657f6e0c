import Foundation
import IncrementalImage

extension ImageLoader {
    /// How a loader downloads, caches and paces its work. Every field has a working default.
    public struct Configuration: Sendable {
        /// Downloads running at once; more wait in a priority queue. Default: the number of cores.
        public var maxConcurrentDownloads: Int
        /// Least time between two previews of one load (default 0.1 s).
        public var previewInterval: TimeInterval
        /// Largest total of decoded pixel bytes in the memory cache (default 1/8 of physical memory, at most 1 GiB).
        public var memoryCacheCostLimit: Int
        /// Where encoded images are cached; nil disables the disk cache (and resuming downloads).
        public var diskCacheDirectory: URL?
        /// Largest total size of the disk cache's files (default 256 MiB).
        public var diskCacheSizeLimit: Int
        /// A download that receives nothing for this long fails with ``ImageLoadingError/timedOut`` (default 30 s).
        public var idleTimeout: TimeInterval
        /// A download still running after this long fails with ``ImageLoadingError/timedOut`` (default 5 min).
        public var totalTimeout: TimeInterval
        /// Largest response body accepted (default 256 MiB).
        public var maximumBodySize: Int
        /// How long a failed URL is answered from memory instead of fetched again (default 60 s).
        public var failureMemoryDuration: TimeInterval
        /// The formats the loader can decode.
        public var decoders: ImageDecoderRegistry

        /// The default disk cache folder: `<user caches>/ImageLoading`.
        public static var defaultDiskCacheDirectory: URL? {
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.appendingPathComponent("ImageLoading")
        }

        /// Makes a configuration.
        public init(maxConcurrentDownloads: Int = ProcessInfo.processInfo.activeProcessorCount,
                    previewInterval: TimeInterval = 0.1,
                    memoryCacheCostLimit: Int = Int(min(ProcessInfo.processInfo.physicalMemory / 8, 1 << 30)),
                    diskCacheDirectory: URL? = Configuration.defaultDiskCacheDirectory,
                    diskCacheSizeLimit: Int = 256 << 20,
                    idleTimeout: TimeInterval = 30, totalTimeout: TimeInterval = 300,
                    maximumBodySize: Int = 256 << 20,
                    failureMemoryDuration: TimeInterval = 60, decoders: ImageDecoderRegistry = .standard) {
            self.maxConcurrentDownloads = max(maxConcurrentDownloads, 1)
            self.previewInterval = previewInterval
            self.memoryCacheCostLimit = memoryCacheCostLimit
            self.diskCacheDirectory = diskCacheDirectory
            self.diskCacheSizeLimit = diskCacheSizeLimit
            self.idleTimeout = idleTimeout
            self.totalTimeout = totalTimeout
            self.maximumBodySize = maximumBodySize
            self.failureMemoryDuration = failureMemoryDuration
            self.decoders = decoders
        }
    }
}
