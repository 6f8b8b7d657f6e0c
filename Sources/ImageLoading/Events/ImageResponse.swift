import Foundation
import IncrementalImage

/// The final result of a load.
public struct ImageResponse: Sendable {
    /// Where the image came from.
    public enum Source: Sendable, Equatable {
        /// The decoded-image memory cache (no decoding).
        case memoryCache
        /// The encoded bytes in the disk cache, still fresh (decoded again, nothing requested).
        case diskCache
        /// The disk cache's bytes after the server confirmed them (`304 Not Modified`).
        case revalidated
        /// The network (or a local file).
        case network
    }

    /// The image, after any thumbnail scaling, orientation and transform.
    public var image: Image
    /// Where it came from.
    public var source: Source
    /// The URL requested.
    public var url: URL
    /// The HTTP status of the exchange that produced the image (200, 206 for a resumed download,
    /// 304 for a revalidation); nil when nothing was requested (memory, fresh disk entry, file).
    public var httpStatus: Int?
    /// The response header fields that matter to an image (lower-cased names): `content-type`,
    /// `etag`, `last-modified`, `cache-control`, `expires`, `date`, `age`, `content-encoding`.
    /// From the network response, or from the disk cache for a cached image.
    public var headers: [String: String]
    /// When the load started, when the first body byte arrived and when it finished.
    public var timings: ImageLoadTimings

    /// Makes a response.
    public init(image: Image, source: Source, url: URL, httpStatus: Int? = nil, headers: [String: String] = [:],
                timings: ImageLoadTimings = ImageLoadTimings()) {
        self.image = image
        self.source = source
        self.url = url
        self.httpStatus = httpStatus
        self.headers = headers
        self.timings = timings
    }

    /// `Content-Type`, if known.
    public var contentType: String? { headers["content-type"] }

    /// Whether the image arrived over the network just now, not from a cache: the moment a UI
    /// fades an image in (a cached image should just appear).
    public var isFromNetwork: Bool { source == .network }
}

/// Points in time of one load.
public struct ImageLoadTimings: Sendable, Equatable {
    /// When the load was asked for.
    public var started: Date
    /// When the first body byte arrived (nil if none came over the network).
    public var firstByte: Date?
    /// When the final image was ready.
    public var finished: Date

    /// Makes timings (default: now).
    public init(started: Date = Date(), firstByte: Date? = nil, finished: Date = Date()) {
        self.started = started
        self.firstByte = firstByte
        self.finished = finished
    }

    /// Seconds from start to finish.
    public var total: TimeInterval { finished.timeIntervalSince(started) }
}
