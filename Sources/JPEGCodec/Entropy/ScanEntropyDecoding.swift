import ImageCore

/// What the decoder needs from the entropy decoder of one scan, Huffman (``ScanDecoder``) or
/// arithmetic (``ArithmeticScanDecoder``): MCUs decoded as bytes arrive, never undone.
protocol ScanEntropyDecoding: AnyObject {
    /// Per scan component, where its blocks go; the owner moves them between MCU rows.
    var windows: UnsafeMutablePointer<CoefficientWindow> { get }
    /// MCUs per MCU row.
    var mcusPerRow: Int { get }
    /// Total MCUs in the scan.
    var mcuCount: Int { get }
    /// Index of the next MCU to decode.
    var nextMCU: Int { get }
    /// Input bytes looked at by this scan so far (for the O(n) counter).
    var bytesExamined: Int { get }
    /// Times a run went into decoding MCUs (a batch each time; tests check that byte-fed scans
    /// decode in batches, not one MCU per run).
    var mcuBatches: Int { get }
    /// Bytes of the last `run` that are used up and may be dropped.
    var consumedBytes: Int { get }

    /// Decodes as many MCUs as `bytes` allow (see ``ScanDecoder/run(bytes:streamOffset:inputComplete:report:onMCURow:)``).
    func run(bytes: UnsafeRawBufferPointer, streamOffset: Int, inputComplete: Bool,
             report: (ImageDecodingError) -> Void, onMCURow: (Int) -> Void) throws -> ScanDecoder.Step

    /// Ends the scan: extraneous whole bytes the decoder still held, and whether it stopped at a marker.
    func finishScan() -> (extraneousBytes: Int, atMarker: Bool)

    /// The stream offset buffered data must reach before a run can decode anything (unless a
    /// marker comes first), when the last run stopped for want of bytes; nil when unknown. The
    /// decoder's `feed` only buffers smaller pieces that hold no 0xFF.
    var waitsForBytesUntil: Int? { get }
    /// The caller examined the bytes up to `offset` and found no marker in them.
    func noteMarkerFree(upTo offset: Int)
    /// The last MCU begun while the data had not run out (libjpeg's `last_good_iMCU_row`, as an
    /// MCU): block smoothing of an incomplete file treats the rows after it differently.
    var lastGoodMCU: Int { get }
}

extension ScanDecoder: ScanEntropyDecoding {}
