import Foundation

/// What a ``DataTask`` tells its ``DecodeTask``s, in order. A decode task that joins late is
/// first sent everything of the current body so far, so it catches up without a second download.
enum ResourceEvent: @unchecked Sendable {
    /// ``ImageCachePolicy/refreshCached`` only: the disk cache's copy, before the server is asked.
    case cachedCopy(Data)
    /// A body starts: the first one, or a new one after a failed resume or a retry from scratch
    /// (decoders start over).
    case bodyStarted(expectedLength: Int?)
    /// The next bytes of the body.
    case bytes(Data)
    /// The body is complete.
    case finished(ResourceOutcome)
    /// The resource could not be loaded (retries spent).
    case failed(ImageLoadingError)
}

/// How a resource's bytes were obtained, for the response and the memory cache.
struct ResourceOutcome: Sendable {
    var source: ImageResponse.Source
    var httpStatus: Int?
    var headers: [String: String]
    var firstByte: Date?
    /// When the image goes stale (nil: never), for the memory cache.
    var expiry: Date?
    /// ``ImageCachePolicy/refreshCached``: the server confirmed the cached copy (304, or the
    /// same bytes again), so no second image is delivered.
    var matchesCachedCopy: Bool
}
