import IncrementalImage

/// Identifies a delivered image: the resource and every option that changes its pixels.
/// Keys the memory cache and the sharing of decode tasks.
struct ImageResultKey: Hashable, Sendable {
    var resource: String
    var maxPixelSize: Int?
    var transformID: String?
    var decodingOptions: DecodingOptions
    var appliesOrientation: Bool
    /// Frames are decoded only for requests that want them, so this splits decode tasks (the
    /// final image is the same either way).
    var deliversFrames = false
}
