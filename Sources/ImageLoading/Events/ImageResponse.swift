import Foundation
import IncrementalImage

/// The final result of a load.
public struct ImageResponse: Sendable {
    /// Where the image came from.
    public enum Source: Sendable, Equatable {
        /// The decoded-image memory cache (no decoding).
        case memoryCache
        /// The encoded bytes in the disk cache (decoded again).
        case diskCache
        /// The network (or a local file).
        case network
    }

    /// The image, after any thumbnail scaling and transform.
    public var image: Image
    /// Where it came from.
    public var source: Source
    /// The URL requested.
    public var url: URL
}
