import IncrementalImage

/// A change applied to the final image before it is cached and delivered (e.g. a crop).
///
/// The ``id`` names the transform in cache keys: two transforms with the same id must give the
/// same result.
public struct ImageTransform: Sendable {
    /// Names the transform in cache and coalescing keys, e.g. `"crop-square"`.
    public var id: String
    /// The work; runs on the request's decoding queue, never on the caller's.
    public var apply: @Sendable (Image) throws -> Image

    /// Makes a transform.
    public init(id: String, apply: @escaping @Sendable (Image) throws -> Image) {
        self.id = id
        self.apply = apply
    }
}
