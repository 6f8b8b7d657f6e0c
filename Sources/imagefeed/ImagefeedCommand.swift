import Foundation

/// The `imagefeed` command line: parses the subcommand and reports failures on stderr.
///
/// ```
/// imagefeed decode INPUT -o OUTPUT [--chunk BYTES] [--frames DIR] [--format native|rgba8] [--partial]
/// ```
enum ImagefeedCommand {
    static let usage = """
    usage: imagefeed decode INPUT -o OUTPUT [--chunk BYTES] [--frames DIR] [--format native|rgba8] [--partial]

      INPUT            a PNG file (JPEG once its decoder exists)
      -o OUTPUT        where to write the image: .png or .pam (P7, 16-bit samples big-endian)
      --chunk BYTES    feed the file through the incremental API BYTES at a time (default: all at once)
      --frames DIR     write the picture as DIR/frame-0001.png, frame-0002.png, ... each time it changes
      --format FORMAT  native (the file's own pixel format, default) or rgba8
      --partial        on a decoding error, still write what was decoded
    """

    /// Runs the command; returns the exit status (0 success, 1 decoding or I/O error, 2 bad arguments).
    static func run(_ arguments: [String]) -> Int32 {
        guard let subcommand = arguments.first else {
            printError(usage)
            return 2
        }
        switch subcommand {
        case "decode":
            let options: DecodeCommandOptions
            do {
                options = try DecodeCommandOptions(parsing: Array(arguments.dropFirst()))
            } catch let error as ArgumentError {
                printError("imagefeed: \(error.message)\n\n\(usage)")
                return 2
            } catch {
                printError("imagefeed: \(error)")
                return 2
            }
            return DecodeCommand(options: options).run()
        case "-h", "--help", "help":
            print(usage)
            return 0
        default:
            printError("imagefeed: unknown subcommand '\(subcommand)'\n\n\(usage)")
            return 2
        }
    }

    /// Writes one line (or block) to stderr.
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
