import Dispatch
import ImageCore

/// Progressive files on two threads: whole buffered scans decoded on a worker while the caller's
/// thread goes on with the scans after them.
///
/// A progressive file spends about half its one-thread time decoding scans, one after another;
/// most touch coefficients no other scan near them touches. A scan whose data is all buffered
/// can go to the worker, in file order, when it touches nothing a scan still on the worker
/// touches (the worker is idle), or when it does (it then waits its turn behind them on the
/// serial queue). The caller decodes the other scans itself, after waiting for the worker's scans
/// they depend on. Scans *depend* when they share a component and both code DC or both code AC:
/// a DC scan writes only coefficient 0 of each block, an AC scan only coefficients 1...63 and the
/// block's non-zero mask (a corrupt run's stray write lands on 63, never 0), so a DC scan and an
/// AC scan of the same blocks write different memory.
///
/// What decoding a scan does besides the coefficients (warnings, the marker search after it, its
/// last good MCU for smoothing an incomplete file) the worker records in its ``ScanJob``, and the
/// decoder merges it in file order once the jobs are done (``JPEGDecoder/joinScanWorker()``),
/// which it does before anything reads coefficients and before each `feed` returns: a decoder is
/// never seen with a job in flight, and its state is the one thread's.
///
/// Only scans that cannot throw are handed over (not DC first scans, whose predictor overflow is
/// an error that stops decoding), so the scans after a handed-over one never run past an error.
///
/// Thread confinement: every method runs on the caller's thread; jobs run on `queue` and touch
/// only their own job, their scan decoder, their copy of the bytes and the coefficients they code.
final class ScanWorker {
    private let queue = DispatchQueue(label: "JPEGCodec.ScanWorker", qos: .userInitiated)
    /// Signalled once per finished job; jobs finish in submission order (one serial queue).
    private let finished = EventCounter()
    /// Jobs submitted and not yet collected, in file order.
    private var jobs: [ScanJob] = []
    /// `jobs[0 ..< finishedCount]` are known to be done (their signal was taken).
    private var finishedCount = 0
    /// Scans handed over so far, and warnings their decoding met (statistics for tests).
    private(set) var scansHandedOver = 0
    private(set) var warningsFromJobs = 0

    deinit {
        // Jobs write coefficients the decoder owns: let them finish.
        while finishedCount < jobs.count { finished.take(); finishedCount += 1 }
    }

    /// Whether no job is in flight (counts jobs that finished meanwhile).
    var isIdle: Bool {
        dispatchPrecondition(condition: .notOnQueue(queue))
        while finishedCount < jobs.count && finished.tryTake() { finishedCount += 1 }
        return finishedCount == jobs.count
    }

    /// The position among the pending jobs of the last one a scan of `components` (frame indices)
    /// coding DC (`codesDC`) or AC depends on, if any.
    func lastDependency(components: [Int], codesDC: Bool) -> Int? {
        jobs.lastIndex { job in job.codesDC == codesDC && job.components.contains(where: components.contains) }
    }

    /// Queues `job` behind the jobs already submitted.
    func submit(_ job: ScanJob) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        jobs.append(job)
        scansHandedOver += 1
        let finished = self.finished
        queue.async {
            job.run()
            finished.signal()
        }
    }

    /// Waits until the pending job at position `index` (and every one before it) is done.
    func wait(through index: Int) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        while finishedCount <= index && finishedCount < jobs.count {
            finished.take(spinningFor: Self.spinNanoseconds)
            finishedCount += 1
        }
    }

    /// Waits for every job and hands them over, in file order, for their results to be merged.
    func collect() -> [ScanJob] {
        guard !jobs.isEmpty else { return [] }
        wait(through: jobs.count - 1)
        defer { jobs.removeAll(keepingCapacity: true); finishedCount = 0 }
        warningsFromJobs += jobs.reduce(0) { $0 + $1.warnings.count }
        return jobs
    }

    /// Smaller scans stay on the caller's thread: a hand-over costs a copy and a wake-up.
    static let minimumScanBytes = 512

    /// How long a wait polls before it sleeps: a job about to end costs no wake-up.
    static let spinNanoseconds: UInt64 = 100_000
}

/// One scan decoded on the ``ScanWorker``: the scan's decoder, a copy of its bytes up to and
/// including the marker that ends them, and what decoding it gave besides coefficients.
///
/// `@unchecked Sendable`: the caller builds it and does not touch it until the worker's signal
/// that it is done (taken through ``EventCounter``, whose mutex orders the writes); the worker
/// writes the results only, and the coefficients of the scan's own components and band.
final class ScanJob: @unchecked Sendable {
    let decoder: ScanDecoder
    /// The scan's data from its first byte through the code byte of the marker that ends it.
    let bytes: [UInt8]
    /// The stream offset of `bytes[0]`.
    let streamOffset: Int
    /// Where the ending marker's fill run starts in `bytes`: the parser resumes there.
    let dataEnd: Int
    /// The scan's number in the file (1 = first) and what it codes.
    let ordinal: Int
    let components: [Int]
    let codesDC: Bool
    /// Keeps the coefficients the job writes alive.
    let store: CoefficientStore

    /// Problems met, in order, and whether each changed pixels (entropy-coded data) or not
    /// (extraneous bytes before a marker).
    private(set) var warnings: [(error: ImageDecodingError, affectsPixels: Bool)] = []
    /// Input bytes looked at (``JPEGDecoder/inputBytesExamined``).
    private(set) var examined = 0
    /// Set when the scan could not be decoded as the parser would have (an internal error).
    private(set) var failure: ImageDecodingError?

    init(decoder: ScanDecoder, bytes: [UInt8], streamOffset: Int, dataEnd: Int, ordinal: Int, components: [Int],
         codesDC: Bool, store: CoefficientStore) {
        self.decoder = decoder
        self.bytes = bytes
        self.streamOffset = streamOffset
        self.dataEnd = dataEnd
        self.ordinal = ordinal
        self.components = components
        self.codesDC = codesDC
        self.store = store
    }

    /// Decodes the scan, then does what the parser does after a scan up to the ending marker:
    /// the extraneous bytes the bit reader held and the marker search (which passes stray
    /// restart markers), with the warning for extraneous bytes it would give.
    func run() {
        bytes.withUnsafeBytes { raw in
            do {
                let step = try decoder.run(bytes: raw, streamOffset: streamOffset, inputComplete: false,
                                           report: { self.warnings.append(($0, true)) }, onMCURow: { _ in })
                examined = decoder.bytesExamined
                guard step == .complete else {
                    failure = ImageDecodingError(.internal, at: streamOffset + dataEnd, "a buffered scan stopped before its end marker")
                    return
                }
                var skipped = decoder.finishScan().extraneousBytes
                var position = decoder.consumedBytes
                while true {
                    guard case .found(let code, let start, let end, let more) = MarkerSearch.next(in: raw, from: position) else {
                        failure = ImageDecodingError(.internal, at: streamOffset + position, "the scan's end marker was not found again")
                        return
                    }
                    examined += end - position
                    skipped += more
                    if skipped > 0 {
                        warnings.append((JPEGDecoder.extraneousBytesWarning(skipped, before: code, at: streamOffset + start), false))
                        skipped = 0
                    }
                    if start >= dataEnd { return }
                    // Only restart markers lie before the ending one; the parser passes them.
                    position = end
                }
            } catch {
                failure = error as? ImageDecodingError
                    ?? ImageDecodingError(.internal, at: streamOffset, "unexpected error: \(error)")
            }
        }
    }
}
