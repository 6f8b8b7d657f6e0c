import ImageCore
import PNGCodec

/// The arguments of `imagefeed decode`.
struct DecodeCommandOptions {
    /// The pixel format asked for with `--format`.
    enum OutputFormat: String {
        /// The file's own pixel format.
        case native
        /// 8-bit RGBA.
        case rgba8
        /// Raw CMYK samples of a CMYK/YCCK JPEG (other images keep their own format).
        case cmyk8
    }

    var input: String
    /// Where the image goes; nil when only `--animation` frames are wanted.
    var output: String?
    /// Bytes per `feed` call; nil feeds the whole file at once.
    var chunkSize: Int?
    var framesDirectory: String?
    /// `--animation DIR`: every composited animation frame and `frames.txt`.
    var animationDirectory: String?
    var format: OutputFormat = .native
    /// JPEG DCT-domain downscaling (`--scale 2|4|8`).
    var scale: ScaleFactor = .full
    /// Threads one decode may use (`--threads N`, `DecodingOptions.maximumThreads`).
    var threads = 1
    var writePartial = false
    /// How a `.png` OUTPUT is written: the fast mode unless `--png-level` or `--interlace` say otherwise.
    var pngEncoder = PNGEncoder.fast
    /// `--colorspace srgb|original` (default original: the file's own samples, as djpeg and libpng give them).
    var colorSpace: OutputColorSpace = .original
    /// `--intent perceptual|relative|saturation` for LUT-based profiles (default perceptual).
    var intent: RenderingIntent = .perceptual

    init(parsing arguments: [String]) throws {
        var input: String?, output: String?
        var index = 0
        func value(after flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw ArgumentError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-o", "--output":
                output = try value(after: argument)
            case "--chunk":
                let text = try value(after: argument)
                guard let size = Int(text), size > 0 else {
                    throw ArgumentError(message: "--chunk needs a positive number of bytes, not '\(text)'")
                }
                chunkSize = size
            case "--frames":
                framesDirectory = try value(after: argument)
            case "--animation":
                animationDirectory = try value(after: argument)
            case "--format":
                let text = try value(after: argument)
                guard let format = OutputFormat(rawValue: text) else {
                    throw ArgumentError(message: "--format must be native, rgba8 or cmyk8, not '\(text)'")
                }
                self.format = format
            case "--scale":
                let text = try value(after: argument)
                guard let denominator = Int(text), let scale = ScaleFactor(rawValue: denominator) else {
                    throw ArgumentError(message: "--scale must be 1, 2, 4 or 8, not '\(text)'")
                }
                self.scale = scale
            case "--colorspace":
                colorSpace = try ColorArguments.colorSpace(try value(after: argument))
            case "--intent":
                intent = try ColorArguments.intent(try value(after: argument))
            case "--threads":
                let text = try value(after: argument)
                guard let count = Int(text), count > 0 else {
                    throw ArgumentError(message: "--threads needs a positive number, not '\(text)'")
                }
                threads = count
            case "--partial":
                writePartial = true
            case "--png-level":
                let text = try value(after: argument)
                guard let level = Int(text), (0...9).contains(level) else {
                    throw ArgumentError(message: "--png-level must be 0 to 9, not '\(text)'")
                }
                pngEncoder.compressionLevel = level
            case "--interlace":
                pngEncoder.interlaced = true
            case "--no-reduce":
                pngEncoder.reducesColorType = false
            default:
                guard !argument.hasPrefix("-") || argument == "-" else {
                    throw ArgumentError(message: "unknown option '\(argument)'")
                }
                guard input == nil else { throw ArgumentError(message: "more than one input: '\(input ?? "")' and '\(argument)'") }
                input = argument
            }
            index += 1
        }
        guard let input else { throw ArgumentError(message: "no INPUT file given") }
        guard output != nil || animationDirectory != nil else {
            throw ArgumentError(message: "no output given (-o OUTPUT or --animation DIR)")
        }
        if let output, ImageFileWriter.Kind(path: output) == nil {
            throw ArgumentError(message: "OUTPUT must end in .png or .pam: '\(output)'")
        }
        self.input = input
        self.output = output
    }
}
