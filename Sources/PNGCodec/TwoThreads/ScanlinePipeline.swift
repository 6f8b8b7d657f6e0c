import Dispatch
import ImageCore

/// Image data on two threads (``DecodingOptions/maximumThreads`` ≥ 2, images of at least
/// ``minimumPixels``): the caller's thread inflates, finds and checks the rows
/// (``RowBoundaryTracker``) and copies the filtered bytes into a ring of bands
/// (``ScanlineBands``); a worker unfilters, expands and draws them (``ScanlineDecoder``, Adam7
/// scatter and previews included). On photos inflating (with Adler-32 and the chunks' CRC) is the
/// larger share: of the 724 M instructions one thread spends on a 6 Mpix RGB photo, 443 M stay on
/// the caller's thread and 300 M go to the worker (callgrind); on flat images the worker's is.
///
/// ```
/// caller: inflate ─ copy into band 0 ─ async(0) ─ inflate ─ copy into band 1 ─ async(1) ─ … ─ wait(band 0 drawn) ─ …
/// worker:                              └─ draw band 0 ─ signal ┘       └─ draw band 1 ─ signal ┘
/// ```
/// - Bands are drawn in order (one serial queue). Band `i` is refilled only after the caller has
///   taken one `finished` signal per band in flight beyond `count − 1`, so never while drawn.
/// - Counts (``rowsDecoded``, ``completedRows``, ``isComplete`` …) come from the tracker, which
///   sees every byte at once, so ``PNGDecoder/status`` and its `previewGeneration` after a feed
///   are what one thread reports; a bad filter type throws at the same byte.
/// - ``picture(orientation:iccProfile:)`` hands over the band being filled and waits until
///   every band is drawn: a picture shows exactly the rows counted, as with one thread. The
///   canvas is touched by the caller's thread only then, when no band is in flight.
/// - A row split across bands is put together by the ``ScanlineDecoder``, which takes pieces
///   of any size, so which bytes share a band never changes a pixel.
/// - `deinit` waits for the bands in flight (at most ``ScanlineBands/count``): no job outlives
///   the decoder's use of the ring, and no thread is left waiting.
final class ScanlinePipeline: ScanlineStage {
    /// Below this many pixels one thread is as fast (the hand-overs cost more than they save).
    static let minimumPixels = 1 << 20
    /// The largest band: 64 KiB of filtered bytes (seven rows of a 3000-pixel RGB photo).
    static let maxBandBytes = 1 << 16
    /// Smaller images get smaller bands, so that at least this many pass through the ring.
    static let minimumBandsPerImage = 64

    private var tracker: RowBoundaryTracker
    private let bands: ScanlineBands
    private let queue = DispatchQueue(label: "PNGCodec.ScanlinePipeline", qos: .userInitiated)
    /// Signalled once per band drawn, in order.
    private let finished = DispatchSemaphore(value: 0)
    /// Bands handed to the worker whose `finished` signal the caller has not taken yet.
    private var bandsInFlight = 0
    /// The band being filled, and how many of its bytes are.
    private var fillingBand = 0
    private var filledBytes = 0
    /// Bands handed over so far (each a separate worker job).
    private(set) var bandsHandedOver = 0

    /// Draws `rows` (a fresh stage for `header`'s image) on a worker; nil if `header`'s sizes overflow.
    init?(rows: ScanlineDecoder, header: IHDRChunk) {
        guard let tracker = RowBoundaryTracker(header: header) else { return nil }
        self.tracker = tracker
        let bandBytes = min(Self.maxBandBytes, max(1, tracker.expectedBytes / Self.minimumBandsPerImage))
        bands = ScanlineBands(rows: rows, bandBytes: bandBytes)
    }

    deinit {
        while bandsInFlight > 0 {
            finished.wait()
            bandsInFlight -= 1
        }
    }

    var rowsDecoded: Int { tracker.rowsDecoded }
    var completedPasses: Int { tracker.completedPasses }
    var completedRows: Int { tracker.completedRows }
    var isComplete: Bool { tracker.isComplete }
    var expectedBytes: Int { tracker.expectedBytes }

    func consume(_ piece: UnsafeRawBufferPointer) throws {
        // Only with nothing in flight is the worker's failure (never expected) safe to read.
        if bandsInFlight == 0, let failure = bands.workerFailure { throw failure }
        guard let start = piece.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let verdict = tracker.scan(start, count: piece.count)
        append(start, count: verdict.passOn)
        if let failure = verdict.failure { throw failure }
    }

    /// Waits for every row counted so far to be drawn, then shows the canvas.
    func picture(orientation: Orientation, iccProfile: [UInt8]?) -> Image {
        handOverFillingBand()
        while bandsInFlight > 0 { takeFinishedBand() }
        return bands.rows.picture(orientation: orientation, iccProfile: iccProfile)
    }

    /// Copies bytes into the ring, handing each band to the worker as it fills.
    private func append(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var cursor = bytes, remaining = count
        while remaining > 0 {
            if filledBytes == 0 {
                // Starting a band: it must not be in flight (bands finish in order).
                while bandsInFlight >= ScanlineBands.count { takeFinishedBand() }
            }
            let take = min(bands.bandBytes - filledBytes, remaining)
            (bands.band(fillingBand) + filledBytes).update(from: cursor, count: take)
            filledBytes += take
            cursor += take
            remaining -= take
            if filledBytes == bands.bandBytes { handOverFillingBand() }
        }
    }

    /// Hands the band being filled (if it holds any byte) to the worker.
    private func handOverFillingBand() {
        guard filledBytes > 0 else { return }
        let bands = self.bands, finished = self.finished
        let index = fillingBand, count = filledBytes
        queue.async {
            bands.draw(band: index, count: count)
            finished.signal()
        }
        bandsInFlight += 1
        bandsHandedOver += 1
        fillingBand = (fillingBand + 1) % ScanlineBands.count
        filledBytes = 0
    }

    private func takeFinishedBand() {
        finished.wait()
        bandsInFlight -= 1
    }
}
