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
/// - A job the worker has not started when the caller needs it (the worker is not running: its
///   core is busy, or it is asleep) is the caller's: it claims that job and every later one
///   (``JobClaims``) and runs them itself, in order, so a busy machine costs no more than one
///   thread. The worker skips claimed jobs; it runs nothing meanwhile, since it starts only jobs
///   it claimed and all of them were finished.
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
        let job: TransformJob
        /// The caller ran it (``JobClaims``): no worker signal to take.
        var ranByCaller = false
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
    private let queue = DispatchQueue(label: "JPEGCodec.TransformPipeline", qos: .userInitiated)
    /// Jobs to the worker's loop.
    private let channel: WorkerChannel
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
    /// Jobs submitted so far; the next one's number in ``JobClaims``.
    private var jobsSubmitted = 0
    /// Jobs the caller ran itself because the worker had not started them, or in solo rows.
    private(set) var jobsRunByCaller = 0
    /// iMCU rows the caller still transforms itself without offering them to the worker, after
    /// a wait for a started job took `starvedWaitNanoseconds` (the worker lost its core midway).
    var soloRowsLeft = 0
    /// A wait for a started job longer than this means the worker was descheduled: a job takes
    /// about 3 ns per output pixel on a free core (0.05–0.3 ms for an iMCU row 3000 pixels wide),
    /// so 2 ms, or 40 ns per pixel of a job for very wide pictures.
    private let starvedWaitNanoseconds: UInt64
    /// How many iMCU rows go without the worker after the next such wait; the job after them
    /// tries the worker again. Doubles each time (a busy machine usually stays busy), so a decode
    /// that keeps finding the worker descheduled soon runs on its own thread alone.
    private var soloRowsNext = 32

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
        channel = WorkerChannel(scratch: UpsampleScratch(layout: layout))
        workerRowTarget = max(layout.outputRowsPerIMCU / 2, 1)
        starvedWaitNanoseconds = UInt64(max(1_000_000, 20 * layout.outputWidth * layout.outputRowsPerIMCU))
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
        for job in pending where !job.ranByCaller { finished.take() }
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
        let solo = soloRowsLeft > 0
        let job = TransformJob(renderer: renderer, store: store, windows: UnsafePointer(target), row: row,
                               workerRows: split..<end, picture: picture, number: solo ? -1 : jobsSubmitted)
        if solo {
            // Its rows need the row above transformed: every earlier job first.
            soloRowsLeft -= 1
            while !pending.isEmpty { takeOldest(deliver) }
            job.run(scratch: renderer.scratch)
            jobsRunByCaller += 1
        } else {
            jobsSubmitted += 1
        }
        pending.append(PendingJob(iMCURow: row, callerRows: plannedRows..<split, workerRows: split..<end, picture: picture?.base,
                                  job: job, ranByCaller: solo))
        plannedRows = end
        if !solo { send(.run(job)) }
    }

    private func send(_ entry: WorkerChannel.Entry) {
        channel.ring[channelEntries % WorkerChannel.ringSize] = entry
        channelEntries += 1
        channel.entriesReady.signal()
        guard !loopRunning, case .run = entry else { return }
        loopRunning = true
        let channel = self.channel, first = channelEntries - 1
        let gate = Self.workerGateForTesting
        queue.async {
            gate?.wait()
            gate?.signal()
            channel.loop(from: first)
        }
    }

    /// Tests: while set, a worker's loop starts only once this is signalled, as if its core were
    /// busy (each loop passes the signal on).
    nonisolated(unsafe) static var workerGateForTesting: DispatchSemaphore?

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
        guard let oldest = pending.first else { return }
        if oldest.ranByCaller {
            // Run here when an earlier job was waited for.
        } else if finished.tryTake() {
            workerRowTarget = min(workerRowTarget + 1, jobRows)
        } else {
            workerRowTarget = max(workerRowTarget - 1, 0)
            if channel.claims.claimForCaller(from: oldest.job.number, to: jobsSubmitted) {
                for index in pending.indices {
                    pending[index].job.run(scratch: renderer.scratch)
                    pending[index].ranByCaller = true
                }
                jobsRunByCaller += pending.count
            } else {
                let start = DispatchTime.now().uptimeNanoseconds
                finished.take(spinningFor: Self.spinNanoseconds)
                if DispatchTime.now().uptimeNanoseconds - start > starvedWaitNanoseconds {
                    // The worker was descheduled inside its job: the cores are oversubscribed.
                    soloRowsLeft = soloRowsNext
                    soloRowsNext *= 2
                }
            }
        }
        let job = pending.removeFirst()
        renderer.didTransform(iMCURow: job.iMCURow)
        if !job.ranByCaller { rowsFromWorker += job.workerRows.count }
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
/// the loop on the pipeline's serial queue reads the ring and uses `scratch`.
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
    /// Which jobs the worker runs; it signals `finished` for those only.
    let claims = JobClaims()

    /// The worker's upsampling rows.
    let scratch: UpsampleScratch

    init(scratch: UpsampleScratch) {
        self.scratch = scratch
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
                guard claims.claimForWorker(job.number) else { continue }
                job.run(scratch: scratch)
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
    /// Its number in submission order (``JobClaims``).
    let number: Int

    /// Runs the job with `scratch`, the upsampling rows of the thread that runs it.
    func run(scratch: UpsampleScratch) {
        renderer.transform(iMCURow: row, windows: windows, clearingBlocks: true)
        guard let picture, !workerRows.isEmpty else { return }
        renderer.emitRows(workerRows, into: picture.base + workerRows.lowerBound * picture.bytesPerRow,
                          stride: picture.bytesPerRow, scratch: scratch)
    }
}
