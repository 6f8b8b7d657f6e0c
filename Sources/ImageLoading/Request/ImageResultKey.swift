import IncrementalImage

/// Identifies a delivered image: the resource and every option that changes its pixels.
/// Keys the memory cache and the sharing of decode tasks.
struct ImageResultKey: Hashable, Sendable {
    var resource: String
    var maxPixelSize: Int?
    var transformID: String?
    var decodingOptions: DecodingOptions
    var appliesOrientation: Bool
}
