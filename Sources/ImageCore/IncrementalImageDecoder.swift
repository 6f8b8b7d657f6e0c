/// A decoder that takes the encoded bytes as they arrive and can show the best picture so far.
///
/// Work is O(total bytes) however the input is split: bytes are copied in once and never re-read.
/// Errors are sticky: once one is thrown, later calls throw it again, while
/// ``currentImage()`` keeps returning what was decoded before it.
public protocol IncrementalImageDecoder: AnyObject {
    /// Appends `bytes` and decodes as far as they allow. Never blocks.
    @discardableResult
    func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus
    /// Declares the end of input and returns the final image, or throws (e.g. `truncated`);
    /// ``currentImage()`` still returns everything decoded.
    func finish() throws -> Image
    /// Known as soon as the header is parsed.
    var header: ImageHeader? { get }
    /// Where decoding stands.
    var status: DecodingStatus { get }
    /// The best picture so far, or nil before the header. Always a whole image:
    /// rows not decoded yet are blank (sequential) or filled from coarser data (Adam7, progressive).
    func currentImage() -> Image?
    /// Input bytes the decoder has examined so far, counted where they are read: proves O(n) work.
    var inputBytesExamined: Int { get }
}

extension IncrementalImageDecoder {
    /// Appends an array of bytes. See ``feed(_:)-(UnsafeRawBufferPointer)``.
    @discardableResult
    public func feed(_ bytes: [UInt8]) throws -> DecodingStatus {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    /// Appends a slice of bytes.
    @discardableResult
    public func feed(_ bytes: ArraySlice<UInt8>) throws -> DecodingStatus {
        try bytes.withUnsafeBytes { try feed($0) }
    }

    /// Appends any sequence of bytes (copied into a contiguous array first).
    @discardableResult
    public func feed<S: Sequence>(contentsOf bytes: S) throws -> DecodingStatus where S.Element == UInt8 {
        try feed(Array(bytes))
    }

    /// Feeds all of `bytes` and finishes: a one-shot decode.
    public func decode(_ bytes: [UInt8]) throws -> Image {
        try feed(bytes)
        return try finish()
    }
}
