import Foundation
import IncrementalImage

/// What to load and how: the URL plus the options that shape the result and its delivery.
///
/// Requests with the same URL and the same result-shaping options (``maxPixelSize``,
/// ``transform``, ``decodingOptions``, cache policy) share one download and one decode.
public struct ImageRequest: Sendable {
    /// `http`, `https` or `file`.
    public var url: URL
    /// Place in the download queue; can be changed while queued (``ImageLoadTask/setPriority(_:)``).
    public var priority: ImagePriority
    /// Whether `.preview` events are delivered while the image arrives.
    public var deliversPreviews: Bool
    /// Longest side of the delivered image, for thumbnails: the decoder scales first where it can
    /// (JPEG in the DCT domain), then the loader shrinks exactly to this size. Nil keeps the full size.
    public var maxPixelSize: Int?
    /// Which caches are read and written.
    public var cachePolicy: ImageCachePolicy
    /// Load even if this URL failed before (failures are otherwise remembered, to avoid refetch storms).
    public var retryFailed: Bool
    /// Run on the final image before it is cached and delivered (off the delivery path).
    public var transform: ImageTransform?
    /// Options handed to the decoder (limits, scale, output format).
    public var decodingOptions: DecodingOptions

    /// Makes a request; only the URL is required.
    public init(url: URL, priority: ImagePriority = .normal, deliversPreviews: Bool = true, maxPixelSize: Int? = nil,
                cachePolicy: ImageCachePolicy = .useCaches, retryFailed: Bool = false, transform: ImageTransform? = nil,
                decodingOptions: DecodingOptions = DecodingOptions()) {
        self.url = url
        self.priority = priority
        self.deliversPreviews = deliversPreviews
        self.maxPixelSize = maxPixelSize
        self.cachePolicy = cachePolicy
        self.retryFailed = retryFailed
        self.transform = transform
        self.decodingOptions = decodingOptions
    }

    /// The identity of the result: requests with equal keys get the same image.
    var resultKey: ImageResultKey {
        ImageResultKey(url: url, maxPixelSize: maxPixelSize, transformID: transform?.id, decodingOptions: decodingOptions)
    }
}
