import Dispatch
import ImageCore

/// Sequential decoding on two threads (``DecodingOptions/maximumThreads`` ≥ 2): the caller's
/// thread decodes the entropy-coded data of iMCU row r + 1 while a worker runs the IDCTs of row r
/// and upsamples and colour-converts the last rows it completes straight into the picture; the
/// caller emits the first rows itself. The stages cost about 30 % (entropy), 38 % (IDCT) and
/// 32 % (upsampling and colour) of a one-thread decode (callgrind, 6 Mpix 4:2:0); how many rows
/// the worker takes follows the load (`workerRowTarget`).
///
/// Hand-over, row by row (`r` = iMCU row):
/// ```
/// caller:  entropy(r) ─ submit(r) ─ wait(r − 1) ─ emit its rows ─ entropy(r + 1) ─ submit(r + 1) ─ wait(r) ─ …
/// worker:              └──── transform(r), emit its last rows ──┘                 └─ transform(r + 1) …
/// ```
/// - Coefficients: the store keeps ``coefficientSlots`` iMCU rows; row r is decoded into slot
///   r mod 2. The caller moves on to row r + 1 (slot of r − 1) only after `wait(r − 1)`, and the
///   worker zeroes each block after its IDCT, so a slot is reused clean and never shared.
/// - Samples: the renderer's rings hold ``ringIMCURows`` iMCU rows. While the worker writes row
///   r + 1, the caller reads rows r − 1 and r at most (the rows job r completed need the row
///   above theirs at most), so the worker never overwrites a sample row still to be read; the
///   worker's own reads come after its own writes.
/// - Output rows: each job's rows are fixed at submission (`plannedRows`), so the two threads
///   emit disjoint rows of the picture. The picture's memory must stay where it is while a job
///   is in flight: the decoder drains the pipeline before it hands the picture out (after which
///   the next write may copy it) and before it lets go of it. Only the caller's thread touches
///   the renderer's counters and its upsampling scratch (the worker has its own).
/// - The counter's signal after a job and the caller's take of it (a mutex) order the worker's writes
///   before the caller's reads.
final class TransformPipeline {
    /// iMCU rows of coefficients in flight: one being entropy-decoded, one being transformed.
    static let coefficientSlots = 2
    /// iMCU rows each sample ring holds when a worker transforms ahead of the caller's reads.
    static let ringIMCURows = 4

    /// A finished job: the output rows it made ready, split between the caller (`callerRows`, to
    /// emit into the picture now) and the worker (`workerRows`, already in the picture).
    struct FinishedRows {
        let callerRows: Range<Int>
        let workerRows: Range<Int>
        /// The picture memory the worker wrote to, which must still be the picture's.
        let picture: UnsafeMutablePointer<UInt8>?
    }

    /// Where the worker writes its rows: the picture's first byte and the bytes per row.
    struct Picture {
        let base: UnsafeMutablePointer<UInt8>
        let bytesPerRow: Int
    }

    private struct PendingJob {
        let iMCURow: Int
        let callerRows: Range<Int>
        let workerRows: Range<Int>
        let picture: UnsafeMutablePointer<UInt8>?
    }

    private let renderer: BlockRowRenderer
    private let store: CoefficientStore
    private let componentCount: Int
    /// Per coefficient slot, the windows its job reads (`coefficientSlots` × components), copied
    /// from the store's windows at submission so the caller can move those on.
    private let slotWindows: UnsafeMutablePointer<CoefficientWindow>
    /// The most output rows one job makes ready: an iMCU row's, plus the row above it that
    /// waited for this one's samples (fancy vertical upsampling).
    private let jobRows: Int
    /// The worker's upsampling rows.
    private let workerScratch: UpsampleScratch
    private let queue = DispatchQueue(label: "JPEGCodec.TransformPipeline", qos: .userInitiated)
    /// Jobs to the worker's loop.
    private let channel = WorkerChannel()
    /// Entries written to the channel's ring (jobs and stops).
    private var channelEntries = 0
    /// Whether a loop block is queued or running and has not been sent a stop.
    private var loopRunning = false
    /// Signalled once per finished job, in submission order.
    private var finished: EventCounter { channel.finished }
    /// Jobs submitted whose completion the caller has not taken yet, oldest first (at most
    /// ``coefficientSlots``).
    private var pending: [PendingJob] = []
    /// Output rows up to here are assigned to a submitted job.
    private var plannedRows = 0
    /// How many of a job's ready rows the worker emits (the last ones). It follows the load: one
    /// more when the caller found the worker already done, one fewer when it had to wait, so
    /// the two threads end up equally busy whatever the sampling (4:2:0 leaves the worker room,
    /// 4:4:4 hardly any). Which thread emits a row never changes its pixels. It starts at half
    /// an iMCU row, so the worker's share is used from the first row on.
    private var workerRowTarget: Int
    /// Output rows the worker emitted so far (delivered ones).
    private(set) var rowsFromWorker = 0

    /// Runs `renderer`'s IDCTs for `store`'s ring (extent `.iMCURowRing(slots: coefficientSlots)`),
    /// and emits some rows of each iMCU row as well.
    init(renderer: BlockRowRenderer, store: CoefficientStore, layout: FrameLayout) {
        self.renderer = renderer
        self.store = store
        componentCount = layout.components.count
        slotWindows = .allocate(capacity: Self.coefficientSlots * componentCount)
        slotWindows.initialize(from: store.windows, count: componentCount)
        (slotWindows + componentCount).initialize(from: store.windows, count: (Self.coefficientSlots - 1) * componentCount)
        jobRows = layout.outputRowsPerIMCU + 1
        workerScratch = UpsampleScratch(layout: layout)
        workerRowTarget = max(layout.outputRowsPerIMCU / 2, 1)
        pending.reserveCapacity(Self.coefficientSlots)
    }

    deinit {
        // Jobs read `slotWindows`: let them finish first.
        waitForJobs()
        pauseWorker()
        slotWindows.deallocate()
    }

    /// Waits for every submitted job without delivering its rows: the decoder calls this before
    /// it lets go of the picture the jobs write to.
    func waitForJobs() {
        for _ in pending { finished.take() }
        pending.removeAll()
    }

    /// Whether no job is in flight.
    var isIdle: Bool { pending.isEmpty }

    /// Hands iMCU row `row` (the next one), whose blocks `windows` (one per frame component) point
    /// at, to the worker, which writes its share of the rows into `picture` (none without one).
    /// Waits first if both coefficient slots are still in flight.
    func submit(iMCURow row: Int, windows: UnsafePointer<CoefficientWindow>, picture: Picture?,
                deliver: (FinishedRows) -> Void) {
        while pending.count >= Self.coefficientSlots { takeOldest(deliver) }
        let slot = row % Self.coefficientSlots
        let target = slotWindows + slot * componentCount
        target.update(from: windows, count: componentCount)
        // The rows this row's samples complete, the last `workerRowTarget` of them for the worker.
        let end = renderer.readyRowsEnd(from: plannedRows, transformedIMCURows: row + 1)
        let split = picture == nil ? end : max(end - workerRowTarget, plannedRows)
        let job = TransformJob(renderer: renderer, store: store, windows: UnsafePointer(target), row: row,
                               workerRows: split..<end, picture: picture, scratch: workerScratch)
        pending.append(PendingJob(iMCURow: row, callerRows: plannedRows..<split, workerRows: split..<end, picture: picture?.base))
        plannedRows = end
        send(.run(job))
    }

    private func send(_ entry: WorkerChannel.Entry) {
        channel.ring[channelEntries % WorkerChannel.ringSize] = entry
        channelEntries += 1
        channel.entriesReady.signal()
        guard !loopRunning, case .run = entry else { return }
        loopRunning = true
        let channel = self.channel, first = channelEntries - 1
        queue.async { channel.loop(from: first) }
    }

    /// Ends the worker's loop once it has run the jobs sent so far (they still finish).
    func pauseWorker() {
        guard loopRunning else { return }
        send(.stop)
        loopRunning = false
    }

    /// Waits until every submitted iMCU row up to `row` is done, tells the renderer, and hands
    /// each job's rows to `deliver` (on this thread).
    func waitFor(iMCURow row: Int, deliver: (FinishedRows) -> Void) {
        while let oldest = pending.first, oldest.iMCURow <= row { takeOldest(deliver) }
    }

    /// Waits for every submitted row.
    func drain(deliver: (FinishedRows) -> Void) {
        while !pending.isEmpty { takeOldest(deliver) }
    }

    /// How long the caller polls for a job still running before it sleeps. The split keeps the
    /// two threads close, so the caller often waits a few microseconds; going to sleep and being
    /// woken costs tens of microseconds on a virtual machine, on every such row.
    static let spinNanoseconds: UInt64 = 50_000

    private func takeOldest(_ deliver: (FinishedRows) -> Void) {
        if !finished.tryTake() {
            workerRowTarget = max(workerRowTarget - 1, 0)
            finished.take(spinningFor: Self.spinNanoseconds)
        } else {
            workerRowTarget = min(workerRowTarget + 1, jobRows)
        }
        let job = pending.removeFirst()
        renderer.didTransform(iMCURow: job.iMCURow)
        rowsFromWorker += job.workerRows.count
        deliver(FinishedRows(callerRows: job.callerRows, workerRows: job.workerRows, picture: job.picture))
    }
}

/// The caller-to-worker hand-over of ``TransformPipeline``: a ring of entries and the counters
/// that order them.
///
/// `@unchecked Sendable`: the caller writes ring entry n before it signals `entriesReady`, and
/// the worker reads it after the matching wait; the caller rewrites entry n only ``ringSize``
/// entries later, by when the worker has read it: entries not read yet are at most the jobs in
/// flight (two; a new job is written only after the oldest of them is taken, so it was read)
/// plus a stop before, between and after them, plus a new job and its stop, seven in all. Only
/// the loop on the pipeline's serial queue reads the ring.
private final class WorkerChannel: @unchecked Sendable {
    enum Entry {
        case empty
        case run(TransformJob)
        case stop
    }

    /// Room for the entries not read yet (see above).
    static let ringSize = 8
    /// How long the worker polls for the next entry before it sleeps.
    static let spinNanoseconds: UInt64 = 100_000
    let ring: UnsafeMutablePointer<Entry>
    let entriesReady = EventCounter()
    let finished = EventCounter()

    init() {
        ring = .allocate(capacity: Self.ringSize)
        ring.initialize(repeating: .empty, count: Self.ringSize)
    }

    deinit {
        ring.deinitialize(count: Self.ringSize)
        ring.deallocate()
    }

    /// The worker: runs entries from index `first` on until a stop.
    func loop(from first: Int) {
        var index = first
        while true {
            awaitEntry()
            let entry = ring[index % Self.ringSize]
            index += 1
            switch entry {
            case .run(let job):
                job.run()
                finished.signal()
            case .stop, .empty:
                return
            }
        }
    }

    private func awaitEntry() {
        entriesReady.take(spinningFor: Self.spinNanoseconds)
    }
}

/// One iMCU row's IDCT, run on the worker.
///
/// `@unchecked Sendable`: the renderer, store and picture are shared with the caller's thread, but
/// this job touches only the ring rows and coefficient slot of its own row and its own output
/// rows, which the caller leaves alone until it has waited for the job (``TransformPipeline``'s
/// hand-over rules). It keeps the renderer and store alive, so a decoder dropped mid-scan cannot
/// free them under the worker; the decoder waits for its jobs before it frees the picture.
private struct TransformJob: @unchecked Sendable {
    let renderer: BlockRowRenderer
    let store: CoefficientStore
    let windows: UnsafePointer<CoefficientWindow>
    let row: Int
    /// Output rows the worker emits into `picture` once the row is transformed.
    let workerRows: Range<Int>
    let picture: TransformPipeline.Picture?
    let scratch: UpsampleScratch

    func run() {
        renderer.transform(iMCURow: row, windows: windows, clearingBlocks: true)
        guard let picture, !workerRows.isEmpty else { return }
        renderer.emitRows(workerRows, into: picture.base + workerRows.lowerBound * picture.bytesPerRow,
                          stride: picture.bytesPerRow, scratch: scratch)
    }
}
