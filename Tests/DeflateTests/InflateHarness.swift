import Deflate

/// What feeding a stream to an ``Inflater`` produced: all output handed to the sink, and the
/// error thrown (by a feed or by finish), if any.
struct InflateRun {
    var output: [UInt8]
    var error: Error?
    var inflater: Inflater

    /// The error as an ``InflateError``, if it is one.
    var inflateError: InflateError? { error as? InflateError }
}

/// Feeds pieces to a fresh ``Inflater`` the way a network would deliver them.
enum InflateHarness {
    /// Feeds every piece (stopping at the first error), then calls `finish()` if `finish` is set.
    static func run(_ pieces: [ArraySlice<UInt8>], format: DeflateFormat,
                    options: InflateOptions = InflateOptions(), finish: Bool = true) -> InflateRun {
        let inflater = Inflater(format: format, options: options)
        var output: [UInt8] = []
        do {
            for piece in pieces {
                _ = try piece.withUnsafeBytes { raw in
                    try inflater.feed(raw) { output.append(contentsOf: $0) }
                }
            }
            // finish(into:): the output of a cut stream's last bytes, which small pieces may leave waiting.
            if finish { try inflater.finish { output.append(contentsOf: $0) } }
            return InflateRun(output: output, error: nil, inflater: inflater)
        } catch {
            return InflateRun(output: output, error: error, inflater: inflater)
        }
    }

    /// Feeds `bytes` as a single piece.
    static func run(_ bytes: [UInt8], format: DeflateFormat, options: InflateOptions = InflateOptions(),
                    finish: Bool = true) -> InflateRun {
        run([bytes[...]], format: format, options: options, finish: finish)
    }
}
