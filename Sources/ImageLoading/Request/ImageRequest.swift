import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

/// What to load and how: a `URLRequest` (any headers, cookies, method, timeout) plus the options
/// that shape the result and its delivery.
///
/// Requests for the same resource (``cacheKey``, by default the URL) share one download and one
/// disk-cache entry (the download is sent with the first such request's `URLRequest`); those
/// that also agree on every result-shaping option (``maxPixelSize``,
/// ``transform``, ``decodingOptions``, ``appliesOrientation``) share one decode too.
public struct ImageRequest: Sendable {
    /// The HTTP request sent (its cache policy is ignored: the loader caches on its own).
    public var urlRequest: URLRequest
    /// Place in the download queue; can be changed while queued (``ImageLoadTask/setPriority(_:)``).
    public var priority: ImagePriority
    /// Whether `.preview` events are delivered while the image arrives.
    public var deliversPreviews: Bool
    /// Whether `.frame` events bring each frame of an animation as it arrives (default false:
    /// only the default image, as `.completed`). A variant option: such requests get their own
    /// decode task.
    public var deliversFrames: Bool = false
    /// Longest side of the delivered image, for thumbnails: the decoder scales first where it can
    /// (JPEG in the DCT domain), then the loader shrinks exactly to this size. Nil keeps the full size.
    public var maxPixelSize: Int?
    /// Which caches are read and written.
    public var cachePolicy: ImageCachePolicy
    /// Load even if this URL failed before (failures are otherwise remembered, to avoid refetch storms).
    public var retryFailed: Bool
    /// Run on the final image before it is cached and delivered (off the delivery path).
    public var transform: ImageTransform?
    /// Options handed to the decoder (limits, scale, output format, colour space); by default
    /// ``defaultDecodingOptions``.
    public var decodingOptions: DecodingOptions

    /// The loader's default decoding options: as `DecodingOptions()`, but converted to sRGB
    /// (`colorSpace: .sRGB`), since what a loader delivers is for a screen to show. Pass
    /// `DecodingOptions()` to get the file's own samples.
    public static let defaultDecodingOptions = DecodingOptions(colorSpace: .sRGB)
    /// The resource's identity in caches and for sharing downloads; nil means the URL. Set it
    /// for signed URLs whose query changes while the image does not (e.g. drop the signature).
    public var cacheKey: String?
    /// Whether the EXIF orientation is applied to previews and the final image (default true),
    /// so a photo taken sideways shows upright.
    public var appliesOrientation: Bool

    /// Makes a request for `url` with default HTTP fields.
    public init(url: URL, priority: ImagePriority = .normal, deliversPreviews: Bool = true, maxPixelSize: Int? = nil,
                cachePolicy: ImageCachePolicy = .useCaches, retryFailed: Bool = false, transform: ImageTransform? = nil,
                decodingOptions: DecodingOptions = ImageRequest.defaultDecodingOptions, cacheKey: String? = nil,
                appliesOrientation: Bool = true) {
        self.init(urlRequest: URLRequest(url: url), priority: priority, deliversPreviews: deliversPreviews,
                  maxPixelSize: maxPixelSize, cachePolicy: cachePolicy, retryFailed: retryFailed, transform: transform,
                  decodingOptions: decodingOptions, cacheKey: cacheKey, appliesOrientation: appliesOrientation)
    }

    /// Makes a request that sends `urlRequest` as it is: headers (`Authorization`, cookies),
    /// method and timeout included.
    public init(urlRequest: URLRequest, priority: ImagePriority = .normal, deliversPreviews: Bool = true,
                maxPixelSize: Int? = nil, cachePolicy: ImageCachePolicy = .useCaches, retryFailed: Bool = false,
                transform: ImageTransform? = nil, decodingOptions: DecodingOptions = ImageRequest.defaultDecodingOptions,
                cacheKey: String? = nil, appliesOrientation: Bool = true) {
        self.urlRequest = urlRequest
        self.priority = priority
        self.deliversPreviews = deliversPreviews
        self.maxPixelSize = maxPixelSize
        self.cachePolicy = cachePolicy
        self.retryFailed = retryFailed
        self.transform = transform
        self.decodingOptions = decodingOptions
        self.cacheKey = cacheKey
        self.appliesOrientation = appliesOrientation
    }

    /// The URL loaded (`about:blank` if the URL request has none, which then fails as unsupported).
    public var url: URL {
        get { urlRequest.url ?? URL(string: "about:blank") ?? URL(fileURLWithPath: "/") }
        set { urlRequest.url = newValue }
    }

    /// The resource's key: ``cacheKey`` or the URL's string.
    var resourceKey: String { cacheKey ?? urlRequest.url?.absoluteString ?? "" }

    /// The identity of the result: requests with equal keys get the same image.
    var resultKey: ImageResultKey {
        ImageResultKey(resource: resourceKey, maxPixelSize: maxPixelSize, transformID: transform?.id,
                       decodingOptions: decodingOptions, appliesOrientation: appliesOrientation,
                       deliversFrames: deliversFrames)
    }
}
