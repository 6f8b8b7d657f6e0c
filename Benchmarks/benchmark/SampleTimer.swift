import Dispatch

/// Times a piece of work with the monotonic clock (`DispatchTime`, which also exists before macOS 13): one warm-up run, then
/// `repeatCount` samples, and returns the median time of one run.
///
/// A sample repeats the work `k` times and divides, with `k` chosen from the warm-up so a
/// sample lasts at least `minimumSampleSeconds` (e.g. a 0.2 ms decode with a 5 ms minimum
/// gives k = 25); work longer than the minimum gets k = 1. `compare.py` times the C
/// libraries exactly the same way.
struct SampleTimer {
    /// Timed samples after the warm-up.
    let repeatCount: Int
    /// Shortest duration of one sample.
    let minimumSampleSeconds: Double
    /// Cap on `k`, so a decode that measures ~0 s cannot make a sample loop forever.
    static let maximumRunsPerSample = 100_000

    /// Runs `work` once to warm up (its result is returned), then times it.
    func measure<Result>(_ work: () throws -> Result) throws -> (result: Result, medianSeconds: Double) {
        let warmUpStart = Self.now()
        let result = try work()
        let warmUpSeconds = Self.now() - warmUpStart

        var runsPerSample = 1
        if warmUpSeconds < minimumSampleSeconds {
            let wanted = (minimumSampleSeconds / Swift.max(warmUpSeconds, 1e-9)).rounded(.up)
            runsPerSample = Int(Swift.min(wanted, Double(Self.maximumRunsPerSample)))
        }

        var samples: [Double] = []
        samples.reserveCapacity(repeatCount)
        for _ in 0..<repeatCount {
            let start = Self.now()
            for _ in 0..<runsPerSample { _ = try work() }
            samples.append((Self.now() - start) / Double(runsPerSample))
        }
        return (result, Self.median(samples))
    }

    /// Monotonic seconds since an arbitrary start.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) * 1e-9 }

    /// Middle value; the mean of the two middle values for an even count.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
