import Foundation
import IncrementalImage

/// Identifies a delivered image: the URL and every option that changes its pixels.
/// Keys the memory cache and, with the cache policy, the coalescing of requests.
struct ImageResultKey: Hashable, Sendable {
    var url: URL
    var maxPixelSize: Int?
    var transformID: String?
    var decodingOptions: DecodingOptions
}
