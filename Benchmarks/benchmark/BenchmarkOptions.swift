import ImageCore

/// The command line of `benchmark`, parsed.
struct BenchmarkOptions {
    /// Print one JSON object instead of the table.
    var json = false
    /// Timed samples per file (after one warm-up); the median is reported.
    var repeatCount = 7
    /// Feed the decoder this many bytes at a time; nil feeds the whole file in one call.
    var chunkSize: Int?
    /// Image decoders: after every chunk whose `previewGeneration` changed, take `currentImage()`,
    /// as a progressive loader does; the time includes rendering those previews.
    var takePreviews = false
    /// Image decoders: the output format asked for (`DecodingOptions.preferredFormat`); nil
    /// decodes to each file's natural format.
    var outputFormat: PixelFormat?
    /// Streams fed whole go through the streaming API (`feed` with a sink) instead of
    /// `Inflater.decompress(_:format:into:)` with the output size known.
    var streaming = false
    /// Image decoders: the output colour space (`--colorspace srgb` converts to sRGB, timed with the decode).
    var colorSpace = OutputColorSpace.original
    /// Each sample repeats the decode until it lasts at least this long (then divides), so
    /// tiny files are not measured at the clock's resolution. 0 times single decodes.
    var minimumSampleSeconds = 0.005
    /// `--encode-png`: time `PNGEncoder` at this level on each input's decoded picture instead of
    /// timing the decoder; nil times decoding.
    var encodePNGLevel: Int?
    /// `--checksum`: time this checksum over each file's bytes instead of decoding; nil decodes.
    var checksum: ChecksumAlgorithm?
    /// Image decoders: `DecodingOptions.maximumThreads`.
    var threads = 1
    /// JPEG: `DecodingOptions.scale` (decode at 1/N size in the DCT domain).
    var scale = ScaleFactor.full
    /// The decoding options these flags ask for.
    var decodingOptions: DecodingOptions {
        DecodingOptions(scale: scale, preferredFormat: outputFormat, maximumThreads: threads, colorSpace: colorSpace)
    }
    /// Files and folders to benchmark; empty means the default folder.
    var paths: [String] = []

    /// The folder benchmarked when no path is given, relative to the current directory.
    static let defaultPath = "TestImages/"

    static let usage = """
        usage: benchmark [--json] [--repeat N] [--chunk BYTES] [--previews] [--format FORMAT] [--streaming]
                         [--threads N] [--scale N] [--colorspace srgb|original] [--min-sample-ms MS]
                         [--encode-png [--level N]] [--checksum crc32|adler32] [PATH ...]

        Decodes every .zlib, .gz, .deflate, .png, .jpg, .jpeg, .gif and .webp file under the given files
        and folders (default: \(defaultPath), relative to the current directory) and reports
        the median decode time of N timed runs (default 7) after one warm-up run.

          --json             print one JSON object {"results":[...]} on stdout instead of a table
          --repeat N         timed runs per file (default 7)
          --chunk BYTES      feed the decoder BYTES bytes at a time through the incremental API
                             (default: the whole file in one call)
          --previews         after every chunk that changed the picture, take the preview image
                             (currentImage()) as a progressive loader would; timed with the decode
          --streaming        streams fed whole go through the streaming API (feed with a sink)
                             instead of Inflater.decompress(into:) given the output size, which
                             the first (warm-up) run finds
          --format FORMAT    image decoders deliver FORMAT (rgba8, rgb8, gray8, rgba16, ...) instead
                             of each file's natural format, e.g. rgba8 to compare with Wuffs
          --colorspace CS    srgb: decode with DecodingOptions(colorSpace: .sRGB), converting with the
                             file's ICC profile / PNG colour chunks; original (default): no conversion
          --threads N        let one image decode use up to N threads (DecodingOptions.maximumThreads,
                             default 1)
          --scale N          decode JPEGs at 1/N size, N = 1, 2, 4 or 8 (DecodingOptions.scale)
          --min-sample-ms MS repeat the decode inside one timed run until the run lasts at
                             least MS milliseconds, and report the time per decode (default 5;
                             0 times every decode on its own)
          --encode-png       time PNGEncoder instead: each image input is decoded once (not
                             timed), then its picture encoded; output_bytes is the PNG's size
          --level N          PNGEncoder compression level for --encode-png, 0-9 (default 6;
                             1 is the fast mode, PNGEncoder.fast)
          --checksum ALG     time the checksum ALG (crc32 or adler32) over each file's bytes instead
                             of decoding; the output column is the file's size, crc32 the value
          -h, --help         show this text
        """

    /// A command-line mistake, reported with the usage text.
    struct UsageError: Error {
        let message: String
    }

    /// Parses the arguments after the program name. Returns nil when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchmarkOptions? {
        var options = BenchmarkOptions()
        var index = 0
        var onlyPathsFollow = false
        var encodePNG = false
        var level: Int?

        func value(for flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        func positiveInteger(_ text: String, for flag: String) throws(UsageError) -> Int {
            guard let number = Int(text), number >= 1 else {
                throw UsageError(message: "\(flag) needs a whole number of at least 1, not '\(text)'")
            }
            return number
        }

        while index < arguments.count {
            let argument = arguments[index]
            if onlyPathsFollow || !argument.hasPrefix("-") || argument == "-" {
                options.paths.append(argument)
            } else {
                switch argument {
                case "--": onlyPathsFollow = true
                case "--json": options.json = true
                case "--previews": options.takePreviews = true
                case "--streaming": options.streaming = true
                case "--format":
                    let text = try value(for: argument)
                    guard let format = PixelFormat(rawValue: text) else {
                        throw UsageError(message: "--format needs a pixel format (rgba8, rgb8, gray8, rgba16, ...), not '\(text)'")
                    }
                    options.outputFormat = format
                case "--colorspace":
                    switch try value(for: argument) {
                    case "srgb": options.colorSpace = .sRGB
                    case "original": options.colorSpace = .original
                    case let other: throw UsageError(message: "--colorspace is srgb or original, not '\(other)'")
                    }
                case "--repeat": options.repeatCount = try positiveInteger(value(for: argument), for: argument)
                case "--chunk": options.chunkSize = try positiveInteger(value(for: argument), for: argument)
                case "--threads": options.threads = try positiveInteger(value(for: argument), for: argument)
                case "--scale":
                    let text = try value(for: argument)
                    guard let denominator = Int(text), let scale = ScaleFactor(rawValue: denominator) else {
                        throw UsageError(message: "--scale must be 1, 2, 4 or 8, not '\(text)'")
                    }
                    options.scale = scale
                case "--min-sample-ms":
                    let text = try value(for: argument)
                    guard let milliseconds = Double(text), milliseconds >= 0, milliseconds.isFinite else {
                        throw UsageError(message: "--min-sample-ms needs a number of milliseconds >= 0, not '\(text)'")
                    }
                    options.minimumSampleSeconds = milliseconds / 1000
                case "--checksum":
                    let text = try value(for: argument)
                    guard let algorithm = ChecksumAlgorithm(rawValue: text) else {
                        throw UsageError(message: "--checksum is crc32 or adler32, not '\(text)'")
                    }
                    options.checksum = algorithm
                case "--encode-png": encodePNG = true
                case "--level":
                    let text = try value(for: argument)
                    guard let number = Int(text), (0...9).contains(number) else {
                        throw UsageError(message: "--level needs a whole number from 0 to 9, not '\(text)'")
                    }
                    level = number
                case "-h", "--help": return nil
                default: throw UsageError(message: "unknown option '\(argument)'")
                }
            }
            index += 1
        }
        if level != nil && !encodePNG { throw UsageError(message: "--level goes with --encode-png") }
        if encodePNG { options.encodePNGLevel = level ?? 6 }
        if encodePNG && options.checksum != nil { throw UsageError(message: "--checksum and --encode-png exclude each other") }
        return options
    }
}
