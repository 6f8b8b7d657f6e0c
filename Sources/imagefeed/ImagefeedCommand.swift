import Foundation

/// The `imagefeed` command line: parses the subcommand and reports failures on stderr.
///
/// ```
/// imagefeed decode INPUT -o OUTPUT [--chunk BYTES] [--frames DIR] [--format native|rgba8|cmyk8] [--scale 2|4|8] [--partial]
/// imagefeed fetch URL -o OUTPUT [--frames DIR] [--thumbnail PIXELS] [--timeout SECONDS]
/// imagefeed demo [--out DIR]
/// ```
enum ImagefeedCommand {
    static let usage = """
    usage: imagefeed decode INPUT -o OUTPUT [--chunk BYTES] [--frames DIR] [--format native|rgba8|cmyk8] [--scale 2|4|8] [--partial]
           imagefeed fetch URL -o OUTPUT [--frames DIR] [--thumbnail PIXELS] [--timeout SECONDS]
           imagefeed demo [--out DIR]

    decode: feed a local file through the incremental decoder
      INPUT            a PNG, JPEG or WebP file
      -o OUTPUT        where to write the image: .png or .pam (P7, 16-bit samples big-endian)
      --chunk BYTES    feed the file through the incremental API BYTES at a time (default: all at once)
      --frames DIR     write the picture as DIR/frame-0001.png, frame-0002.png, ... each time it changes
      --format FORMAT  native (the file's own pixel format, default) or rgba8
      --partial        on a decoding error, still write what was decoded

    fetch: load a URL with ImageLoader, showing progress and every preview
      URL              http://, https:// or file:// (a plain path is a file)
      -o OUTPUT        where to write the final image: .png or .pam
      --frames DIR     write each preview as DIR/frame-0001.png, frame-0002.png, ...
      --thumbnail PX   deliver the image with its longer side at most PX pixels
      --timeout SECS   fail after SECS seconds without data (default 30)

    demo: serve a progressive JPEG, an Adam7 PNG and an interlaced GIF from a slow local server, load them, and
          write every frame and DIR/contact-sheet.png, the pictures sharpening step by step
      --out DIR        where to write (default demo-output)
    """

    /// Runs the command; returns the exit status (0 success, 1 decoding, network or I/O error, 2 bad arguments).
    static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        guard let subcommand = arguments.first else {
            console.writeError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch subcommand {
            case "decode":
                return DecodeCommand(options: try DecodeCommandOptions(parsing: rest)).run()
            case "fetch":
                return FetchCommand(options: try FetchCommandOptions(parsing: rest), console: console).run()
            case "demo":
                return DemoCommand(options: try DemoCommandOptions(parsing: rest), console: console).run()
            case "-h", "--help", "help":
                console.write(usage)
                return 0
            default:
                console.writeError("imagefeed: unknown subcommand '\(subcommand)'\n\n\(usage)")
                return 2
            }
        } catch let error as ArgumentError {
            console.writeError("imagefeed: \(error.message)\n\n\(usage)")
            return 2
        } catch {
            console.writeError("imagefeed: \(error)")
            return 2
        }
    }

    /// Writes one line (or block) to stderr.
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
