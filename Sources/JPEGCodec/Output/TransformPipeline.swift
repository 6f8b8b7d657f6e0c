import Dispatch

/// Sequential decoding on two threads (``DecodingOptions/maximumThreads`` ≥ 2): the caller's
/// thread decodes the entropy-coded data of the iMCU rows while a worker runs the IDCTs of the
/// rows handed to it and upsamples and colour-converts the last rows each completes into a band;
/// the caller emits each finished row's first rows into the picture itself and copies the band's
/// in. The stages cost about 30 % (entropy), 38 % (IDCT) and 32 % (upsampling and colour) of a
/// one-thread decode (callgrind, 6 Mpix 4:2:0); how many rows the worker takes follows the load
/// (`workerRowTarget`).
///
/// Hand-over: a ring of ``coefficientSlots`` iMCU rows, so neither thread waits for the other
/// at each row. The caller submits row r and goes on decoding r + 1, r + 2, …; it takes finished
/// jobs when it finds them done (a semaphore poll, no system call), and blocks only when the
/// worker is a whole ring behind; the worker sleeps only when it has caught up.
/// ```
/// caller:  entropy(r) ─ submit(r) ─ take done ─ entropy(r + 1) ─ submit(r + 1) ─ take done ─ entropy(r + 2) …
/// worker:              └─ transform(r), emit its rows ─┘└─ transform(r + 1) …  (each signals when done)
/// ```
/// (The first version waited for row r − 1 after submitting r: 125 waits on a 6 Mpix 4:2:0 file,
/// and 1.08–1.31× one thread on two idle cores.)
/// - Coefficients: the store keeps ``coefficientSlots`` (K) iMCU rows; row r is decoded into slot
///   r mod K. ``submit(iMCURow:windows:deliver:)`` returns with at most K − 1 rows in flight (r and
///   the K − 2 before it), so the slot of r + 1, which the caller decodes next, is free; the worker
///   zeroes each block after its IDCT, so a slot is reused clean and never shared.
/// - Samples: the renderer's rings hold ``ringIMCURows`` = K + 1 iMCU rows. While the worker writes
///   row w ≤ r, the caller takes jobs j ≥ r − K + 2 and reads sample rows j − 1 and j at most (the
///   rows job j completed need the row above theirs at most), so rows r − K + 1 … r, K of them,
///   are all the two threads touch: the worker never overwrites a sample row still to be read. The
///   worker's own reads come after its own writes.
/// - Output rows: each job's rows are fixed at submission (`plannedRows`), so the two threads
///   emit disjoint rows; the worker's go into the band of its coefficient slot, which the caller
///   copies out before it submits the job that reuses the slot. Only the caller's thread touches
///   the picture, the renderer's counters and its upsampling scratch (the worker has its own).
/// - The semaphore's signal after a job and the caller's wait for it order the worker's writes
///   before the caller's reads.
final class TransformPipeline {
    /// iMCU rows of coefficients in the ring: one being entropy-decoded, up to K − 1 handed over.
    /// Six slots: the worker may fall four or five rows behind before the caller waits, and the
    /// ring stays about 1.7 MB for a 3000-pixel-wide 4:2:0 picture.
    static let coefficientSlots = 6
    /// iMCU rows each sample ring holds when a worker transforms ahead of the caller's reads.
    static let ringIMCURows = coefficientSlots + 1

    /// A finished job: the output rows it made ready, split between the caller (`callerRows`, to
    /// emit into the picture now) and the worker (`workerRows`, already in `band`, rows `bandStride` apart).
    struct FinishedRows {
        let callerRows: Range<Int>
        let workerRows: Range<Int>
        let band: UnsafePointer<UInt8>
        let bandStride: Int
    }

    private struct PendingJob {
        let iMCURow: Int
        let callerRows: Range<Int>
        let workerRows: Range<Int>
        let band: UnsafePointer<UInt8>
    }

    private let renderer: BlockRowRenderer
    private let store: CoefficientStore
    private let componentCount: Int
    /// Per coefficient slot, the windows its job reads (`coefficientSlots` × components), copied
    /// from the store's windows at submission so the caller can move those on.
    private let slotWindows: UnsafeMutablePointer<CoefficientWindow>
    /// Per coefficient slot, `bandRows` output rows the worker emits into (packed, `bandStride` apart).
    private let bands: UnsafeMutablePointer<UInt8>
    private let bandRows: Int
    private let bandStride: Int
    /// The worker's upsampling rows.
    private let workerScratch: UpsampleScratch
    private let queue = DispatchQueue(label: "JPEGCodec.TransformPipeline", qos: .userInitiated)
    /// Signalled once per finished job, in submission order (the queue is serial).
    private let finished = DispatchSemaphore(value: 0)
    /// Jobs submitted whose completion the caller has not taken yet, oldest first (at most
    /// ``coefficientSlots`` − 1).
    private var pending: [PendingJob] = []
    /// Output rows up to here are assigned to a submitted job.
    private var plannedRows = 0
    /// How many of a job's ready rows the worker emits (the last ones). It follows the load: one
    /// more when the caller found the worker idle, one fewer when it had to wait for it, so
    /// the two threads end up equally busy whatever the sampling (4:2:0 leaves the worker room,
    /// 4:4:4 hardly any). Which thread emits a row never changes its pixels. It starts at half
    /// an iMCU row, so the worker's share is used from the first row on.
    private var workerRowTarget: Int
    /// Output rows the worker emitted so far (delivered ones).
    private(set) var rowsFromWorker = 0

    /// Runs `renderer`'s IDCTs for `store`'s ring (extent `.iMCURowRing(slots: coefficientSlots)`),
    /// and emits some rows of each iMCU row as well.
    init(renderer: BlockRowRenderer, store: CoefficientStore, layout: FrameLayout, bytesPerPixel: Int) {
        self.renderer = renderer
        self.store = store
        componentCount = layout.components.count
        slotWindows = .allocate(capacity: Self.coefficientSlots * componentCount)
        slotWindows.initialize(from: store.windows, count: componentCount)
        (slotWindows + componentCount).initialize(from: store.windows, count: (Self.coefficientSlots - 1) * componentCount)
        // A job makes at most one iMCU row's output rows ready, plus the row above it that
        // waited for this one's samples (fancy vertical upsampling).
        bandRows = layout.outputRowsPerIMCU + 1
        bandStride = layout.outputWidth * bytesPerPixel
        bands = .allocate(capacity: Self.coefficientSlots * bandRows * bandStride)
        bands.initialize(repeating: 0, count: Self.coefficientSlots * bandRows * bandStride)
        workerScratch = UpsampleScratch(layout: layout)
        workerRowTarget = max(layout.outputRowsPerIMCU / 2, 1)
        pending.reserveCapacity(Self.coefficientSlots)
    }

    deinit {
        // Jobs read `slotWindows` and write `bands`: let them finish first.
        for _ in pending { finished.wait() }
        slotWindows.deallocate()
        bands.deallocate()
    }

    /// Whether no job is in flight.
    var isIdle: Bool { pending.isEmpty }

    /// Hands iMCU row `row` (the next one), whose blocks `windows` (one per frame component) point
    /// at, to the worker, after delivering the jobs already done. Returns with at most
    /// `coefficientSlots − 1` rows in flight, waiting for the oldest if need be, so the slot of row
    /// `row + 1` is free for the entropy decoder.
    func submit(iMCURow row: Int, windows: UnsafePointer<CoefficientWindow>, deliver: (FinishedRows) -> Void) {
        takeFinished(deliver)
        // The load decides the worker's share: if it has caught up (idle, waiting for this
        // thread), it gets one row more; if it is a whole ring behind, one row fewer.
        if pending.isEmpty { workerRowTarget = min(workerRowTarget + 1, bandRows) }
        if pending.count >= Self.coefficientSlots - 1 { workerRowTarget = max(workerRowTarget - 1, 0) }
        while pending.count >= Self.coefficientSlots - 1 { takeOldest(waiting: true, deliver) }
        let slot = row % Self.coefficientSlots
        let target = slotWindows + slot * componentCount
        target.update(from: windows, count: componentCount)
        // The rows this row's samples complete, the last `workerRowTarget` of them for the worker.
        let end = renderer.readyRowsEnd(from: plannedRows, transformedIMCURows: row + 1)
        let split = max(end - min(workerRowTarget, bandRows), plannedRows)
        let band = bands + slot * bandRows * bandStride
        let job = TransformJob(renderer: renderer, store: store, windows: UnsafePointer(target), row: row,
                               workerRows: split..<end, band: band, bandStride: bandStride, scratch: workerScratch)
        pending.append(PendingJob(iMCURow: row, callerRows: plannedRows..<split, workerRows: split..<end, band: UnsafePointer(band)))
        plannedRows = end
        let finished = self.finished
        queue.async {
            job.run()
            finished.signal()
        }
    }

    /// Waits for every submitted row.
    func drain(deliver: (FinishedRows) -> Void) {
        while !pending.isEmpty { takeOldest(waiting: true, deliver) }
    }

    /// Delivers the jobs that are done, without waiting.
    private func takeFinished(_ deliver: (FinishedRows) -> Void) {
        while !pending.isEmpty && takeOldest(waiting: false, deliver) {}
    }

    /// Delivers the oldest job once it is done; without `waiting`, only if it is done already
    /// (returns whether it was taken). Jobs finish in submission order (the queue is serial), so
    /// any signal is the oldest's.
    @discardableResult
    private func takeOldest(waiting: Bool, _ deliver: (FinishedRows) -> Void) -> Bool {
        if waiting {
            finished.wait()
        } else if finished.wait(timeout: .now()) == .timedOut {
            return false
        }
        let job = pending.removeFirst()
        renderer.didTransform(iMCURow: job.iMCURow)
        rowsFromWorker += job.workerRows.count
        deliver(FinishedRows(callerRows: job.callerRows, workerRows: job.workerRows, band: job.band, bandStride: bandStride))
        return true
    }
}

/// One iMCU row's IDCT, run on the worker.
///
/// `@unchecked Sendable`: the renderer and store are shared with the caller's thread, but this job
/// touches only the ring rows and coefficient slot of its own row, which the caller leaves alone
/// until it has waited for the job (``TransformPipeline``'s hand-over rules). It keeps both
/// alive, so a decoder dropped mid-scan cannot free them under the worker.
private struct TransformJob: @unchecked Sendable {
    let renderer: BlockRowRenderer
    let store: CoefficientStore
    let windows: UnsafePointer<CoefficientWindow>
    let row: Int
    /// Output rows the worker emits into `band` once the row is transformed.
    let workerRows: Range<Int>
    let band: UnsafeMutablePointer<UInt8>
    let bandStride: Int
    let scratch: UpsampleScratch

    func run() {
        renderer.transform(iMCURow: row, windows: windows, clearingBlocks: true)
        if !workerRows.isEmpty { renderer.emitRows(workerRows, into: band, stride: bandStride, scratch: scratch) }
    }
}
