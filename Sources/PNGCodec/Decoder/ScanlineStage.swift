import ImageCore

/// Where inflated image data goes: reassembled into rows, unfiltered, expanded and drawn.
///
/// ``ScanlineDecoder`` does all of it on the caller's thread; ``ScanlinePipeline`` counts and
/// checks the rows on the caller's thread and unfilters and draws them on a worker
/// (``DecodingOptions/maximumThreads`` ≥ 2). Both report the same counts after the same bytes,
/// and ``picture(orientation:iccProfile:)`` shows every row they have counted.
protocol ScanlineStage: AnyObject {
    /// Takes the next inflated bytes. Throws `invalidData` (offset unknown here: the caller adds
    /// it) for a filter type above 4.
    func consume(_ piece: UnsafeRawBufferPointer) throws
    /// Rows (of all passes) received so far.
    var rowsDecoded: Int { get }
    /// Passes fully received (1 for a finished non-interlaced image).
    var completedPasses: Int { get }
    /// Image rows holding the newest pass's data (see ``ScanlineDecoder/completedRows``).
    var completedRows: Int { get }
    /// Whether every row has been received.
    var isComplete: Bool { get }
    /// Filtered bytes the image needs in all.
    var expectedBytes: Int { get }
    /// The canvas as an `Image`, with every row received so far drawn.
    func picture(orientation: Orientation, iccProfile: [UInt8]?) -> Image
}
