import Dispatch
import ImageCore

/// Progressive files on two threads: the top band of the final picture, drawn by a worker while
/// the caller's thread still decodes the scan that makes the coefficients final.
///
/// A progressive picture can only be drawn once its coefficients stop changing, so a one-shot
/// decode on one thread first decodes every scan and then draws (IDCT, upsampling, colour) about
/// half its time. When a scan starts after which every coefficient of every component is exact
/// (Al = 0 sent for zig-zag 0...63; in the usual scripts the last luma refinement), the rows it
/// has passed no longer change unless another scan follows. The worker draws those rows top down
/// as the scan passes them; at the end of the file the caller takes the rows below an even split
/// of what is left (``ProgressivePreview``). If another scan starts, a picture is asked for
/// mid-scan, or the scan ends short, the band is dropped and the picture drawn as before.
///
/// Thread confinement: ``advance(toIMCURow:windows:output:)``, ``finish(rows:windows:output:)``,
/// ``finishedRows()``, ``cancel()`` and ``workerRows`` run on the caller's thread; the jobs they queue run on the worker and
/// touch only the band's own rings, drawer and output rows, and coefficient rows the scan has
/// passed (which nothing writes while the band lives: a new scan cancels it first).
final class EarlyFinalBand {
    /// The worker's drawing state: rings and drawer of its own, the smoothing the rows get.
    private let state: BandState
    private let queue = DispatchQueue(label: "JPEGCodec.EarlyFinalBand", qos: .userInitiated)
    /// Signalled by the worker once per output row it emits; the caller counts them by polling.
    private let emitted = EventCounter()
    /// Signalled by the worker after each ``advance(toIMCURow:windows:output:)`` job.
    private let jobDone = EventCounter()
    /// Advance jobs queued and not yet counted as done.
    private var jobsInFlight = 0
    /// At most this many advance jobs wait or run at once, each at most ``iMCURowsPerJob`` rows,
    /// so the worker is never far behind what it was handed (the final split depends on it).
    static let maxJobsInFlight = 2
    static let iMCURowsPerJob = 4
    /// Output rows the caller has counted as emitted by the worker.
    private var countedRows = 0
    /// iMCU rows handed to the worker so far.
    private(set) var handedIMCURows = 0
    /// The picture memory the jobs write to.
    private var output: UnsafeMutablePointer<UInt8>?

    /// A band over `layout`'s rows drawn with `quantization` and, per component, `smoothing`.
    init(layout: FrameLayout, conversion: ColorConversion, quantization: UnsafePointer<Int32>, outputStride: Int,
         smoothing: [BlockSmoothing?]) {
        state = BandState(rings: BlockRowRenderer(layout: layout, conversion: conversion, outputStride: outputStride),
                          drawer: RawBlockRowDrawer(layout: layout, quantization: quantization),
                          smoothing: smoothing.map { RowSmoothing.uniform($0) }, layout: layout)
        state.rings.beginPass(firstIMCURow: 0)
    }

    deinit {
        // Jobs use `state` and write the picture: let them finish.
        queue.sync {}
    }

    /// Lets the worker draw iMCU rows up to (not including) `end` from `windows` (one per
    /// component) into `output` (the picture), as far as their output rows are ready; a few rows
    /// at a time, and only while the worker keeps up.
    func advance(toIMCURow end: Int, windows: UnsafePointer<CoefficientWindow>, output: UnsafeMutablePointer<UInt8>) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        jpegInvariant(self.output == nil || self.output == output, "the picture moved under the early final band")
        while jobsInFlight > 0 && jobDone.tryTake() { jobsInFlight -= 1 }
        while end > handedIMCURows && jobsInFlight < Self.maxJobsInFlight {
            let jobEnd = min(end, handedIMCURows + Self.iMCURowsPerJob)
            self.output = output
            handedIMCURows = jobEnd
            jobsInFlight += 1
            let job = BandJob(state: state, windows: windows, output: output, emitted: emitted, done: jobDone,
                              iMCURowEnd: jobEnd, rowLimit: nil)
            queue.async { job.run() }
        }
    }

    /// Output rows the worker has emitted so far (a lower bound while it runs).
    var workerRows: Int {
        dispatchPrecondition(condition: .notOnQueue(queue))
        while emitted.tryTake() { countedRows += 1 }
        return countedRows
    }

    /// Lets the worker go on down to output row `rows` (every coefficient is final now); the
    /// caller draws the rows below meanwhile and then takes ``finishedRows()``.
    func finish(rows: Int, windows: UnsafePointer<CoefficientWindow>, output: UnsafeMutablePointer<UInt8>) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        jpegInvariant(self.output == nil || self.output == output, "the picture moved under the early final band")
        self.output = output
        handedIMCURows = state.layout.mcuRows
        let job = BandJob(state: state, windows: windows, output: output, emitted: emitted, done: nil,
                          iMCURowEnd: state.layout.mcuRows, rowLimit: rows)
        queue.async { job.run() }
    }

    /// Waits for the worker; returns the end of the rows it wrote.
    func finishedRows() -> Int {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let state = self.state
        return queue.sync { state.rings.nextOutputRow }
    }

    /// Waits for the worker to stop; the rows it drew are left to be drawn over.
    func cancel() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {}
    }
}

/// The worker side of ``EarlyFinalBand``: owned by the band's serial queue once the band exists.
///
/// `@unchecked Sendable`: only the band's serial queue uses it after creation (every job, and
/// `finishedRows`'s synchronous block, runs there), so its rings and drawer are never shared.
private final class BandState: @unchecked Sendable {
    let rings: BlockRowRenderer
    let drawer: RawBlockRowDrawer
    let smoothing: [RowSmoothing]
    let layout: FrameLayout
    /// The next iMCU row to push.
    var nextIMCURow = 0

    init(rings: BlockRowRenderer, drawer: RawBlockRowDrawer, smoothing: [RowSmoothing], layout: FrameLayout) {
        self.rings = rings
        self.drawer = drawer
        self.smoothing = smoothing
        self.layout = layout
    }
}

/// One step of the band: pushes iMCU rows up to `iMCURowEnd` (stopping once `rowLimit` output
/// rows are out, when given) and emits the output rows they complete.
///
/// `@unchecked Sendable`: the windows point at coefficient rows the scan has passed and the output
/// at rows only this band writes (``EarlyFinalBand``'s notes).
private struct BandJob: @unchecked Sendable {
    let state: BandState
    let windows: UnsafePointer<CoefficientWindow>
    let output: UnsafeMutablePointer<UInt8>
    let emitted: EventCounter
    /// Signalled when the job is done, if given.
    let done: EventCounter?
    let iMCURowEnd: Int
    let rowLimit: Int?

    func run() {
        let limit = rowLimit ?? state.layout.outputHeight
        let smoothing = state.smoothing
        while state.nextIMCURow < iMCURowEnd && state.rings.nextOutputRow < limit {
            state.rings.push(iMCURow: state.nextIMCURow, windows: windows, drawer: state.drawer, smoothing: { c, _ in smoothing[c] })
            state.nextIMCURow += 1
            let count = state.rings.emitReadyRows(limit: limit, into: output)
            for _ in 0..<count { emitted.signal() }
        }
        done?.signal()
    }
}
