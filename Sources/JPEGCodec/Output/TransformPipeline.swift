import Dispatch

/// Sequential decoding on two threads (``DecodingOptions/maximumThreads`` ≥ 2): the caller's
/// thread decodes the entropy-coded data of iMCU row r + 1 while a worker runs the IDCT of row r,
/// and then upsamples and colour-converts the rows the worker finished. The three stages cost
/// about 30 %, 38 % and 32 % of a one-thread decode (callgrind, 6 Mpix 4:2:0), so the caller's
/// two stages and the worker's one are close to balanced.
///
/// Hand-over, row by row (`r` = iMCU row):
/// ```
/// caller:  entropy(r) ─ submit(r) ─ wait(r − 1) ─ emit rows ─ entropy(r + 1) ─ submit(r + 1) ─ wait(r) ─ …
/// worker:              └──────────── transform(r) ────────────┘               └─ transform(r + 1) ─ …
/// ```
/// - Coefficients: the store keeps ``coefficientSlots`` iMCU rows; row r is decoded into slot
///   r mod 2. The caller moves on to row r + 1 (slot of r − 1) only after `wait(r − 1)`, and the
///   worker zeroes each block after its IDCT, so a slot is reused clean and never shared.
/// - Samples: the renderer's rings hold ``ringIMCURows`` iMCU rows. While the worker writes row
///   r, the caller reads at most rows r − 3 … r − 1 (output rows not emitted yet need the row
///   above theirs at most), so the worker never overwrites a sample row still to be read.
/// - Everything else (the picture, the renderer's counters and upsampling scratch) belongs to the
///   caller's thread. The semaphore's signal after a job and the caller's wait for it order the
///   worker's writes before the caller's reads.
final class TransformPipeline {
    /// iMCU rows of coefficients in flight: one being entropy-decoded, one being transformed.
    static let coefficientSlots = 2
    /// iMCU rows each sample ring holds when a worker transforms ahead of the caller's reads.
    static let ringIMCURows = 4

    private let renderer: BlockRowRenderer
    private let store: CoefficientStore
    private let componentCount: Int
    /// Per coefficient slot, the windows its job reads (`coefficientSlots` × components), copied
    /// from the store's windows at submission so the caller can move those on.
    private let slotWindows: UnsafeMutablePointer<CoefficientWindow>
    private let queue = DispatchQueue(label: "JPEGCodec.TransformPipeline", qos: .userInitiated)
    /// Signalled once per finished job, in submission order (the queue is serial).
    private let finished = DispatchSemaphore(value: 0)
    /// iMCU rows submitted whose completion the caller has not taken yet, oldest first (at most
    /// ``coefficientSlots``).
    private var pendingRows: [Int] = []

    /// Runs `renderer`'s IDCTs for `store`'s ring (extent `.iMCURowRing(slots: coefficientSlots)`).
    init(renderer: BlockRowRenderer, store: CoefficientStore, componentCount: Int) {
        self.renderer = renderer
        self.store = store
        self.componentCount = componentCount
        slotWindows = .allocate(capacity: Self.coefficientSlots * componentCount)
        slotWindows.initialize(from: store.windows, count: componentCount)
        (slotWindows + componentCount).initialize(from: store.windows, count: (Self.coefficientSlots - 1) * componentCount)
        pendingRows.reserveCapacity(Self.coefficientSlots)
    }

    deinit {
        // Jobs read `slotWindows`: let them finish first.
        for _ in pendingRows { finished.wait() }
        slotWindows.deallocate()
    }

    /// Whether no job is in flight.
    var isIdle: Bool { pendingRows.isEmpty }

    /// Hands iMCU row `row`, whose blocks `windows` (one per frame component) point at, to the
    /// worker. Waits first if both coefficient slots are still in flight.
    func submit(iMCURow row: Int, windows: UnsafePointer<CoefficientWindow>) {
        while pendingRows.count >= Self.coefficientSlots { takeOldest() }
        let target = slotWindows + (row % Self.coefficientSlots) * componentCount
        target.update(from: windows, count: componentCount)
        let job = TransformJob(renderer: renderer, store: store, windows: UnsafePointer(target), row: row)
        pendingRows.append(row)
        let finished = self.finished
        queue.async {
            job.run()
            finished.signal()
        }
    }

    /// Waits until every submitted iMCU row up to `row` is transformed, and tells the renderer.
    func waitFor(iMCURow row: Int) {
        while let oldest = pendingRows.first, oldest <= row { takeOldest() }
    }

    /// Waits for every submitted row.
    func drain() {
        while !pendingRows.isEmpty { takeOldest() }
    }

    private func takeOldest() {
        finished.wait()
        renderer.didTransform(iMCURow: pendingRows.removeFirst())
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

    func run() {
        renderer.transform(iMCURow: row, windows: windows, clearingBlocks: true)
    }
}
