import Foundation

/// The `imagefeed` command line: parses the subcommand and reports failures on stderr.
///
/// ```
/// imagefeed decode INPUT [-o OUTPUT] [--animation DIR] [--chunk BYTES] [--frames DIR] [--format native|rgba8|cmyk8] [--scale 1|2|4|8] [--threads N] [--partial]
///                  [--png-level 0-9] [--interlace] [--no-reduce] [--colorspace srgb|original] [--intent perceptual|relative|saturation]
/// imagefeed fetch URL -o OUTPUT [--header "Name: value"]... [--cache-dir DIR] [--thumbnail PX] [--frames DIR] [--timeout SECONDS] [--colorspace srgb|original] [--intent perceptual|relative|saturation]
/// imagefeed demo [--out DIR]
/// imagefeed help [COMMAND]      (or: imagefeed --help, imagefeed COMMAND --help)
/// ```
enum ImagefeedCommand {
    static let decodeHelp = """
    imagefeed decode INPUT [-o OUTPUT] [--animation DIR] [--chunk BYTES] [--frames DIR] [--format native|rgba8|cmyk8] [--scale 1|2|4|8] [--threads N] [--partial]
                    [--png-level 0-9] [--interlace] [--no-reduce] [--colorspace srgb|original] [--intent perceptual|relative|saturation]

    Feeds a local file through the incremental decoder (PNG, JPEG, GIF or WebP, recognised by
    its first bytes) and writes the result (at least one of -o and --animation is needed).
      INPUT            the image file
      -o OUTPUT        where to write the image: .png or .pam (P7, 16-bit samples big-endian)
      --animation DIR  write every composited frame of an animation (APNG, GIF, WebP) as
                       DIR/frame-0001.png, ... (RGBA) as it arrives, and DIR/frames.txt: one line
                       per frame, its number and delay in ms ("3 100"); a still image is one frame
      --chunk BYTES    feed the file BYTES at a time (default: all at once)
      --frames DIR     write the picture as DIR/frame-0001.png, frame-0002.png, ... each time it changes
      --format FORMAT  native (the file's own pixel format, default), rgba8, or cmyk8 (raw CMYK of
                       a CMYK/YCCK JPEG)
      --scale N        JPEG only: decode at 1/N size in the DCT domain (1, 2, 4 or 8)
      --colorspace CS  srgb: convert to sRGB with the file's ICC profile (or PNG cICP/sRGB/gAMA/cHRM);
                       original (default): the file's own samples
      --intent I       with --colorspace srgb, how a LUT profile (CMYK press, say) maps to sRGB:
                       perceptual (default), relative (colorimetric) or saturation
      --threads N      let the decode use up to N threads (JPEG: IDCTs on a second thread)
      --partial        on a decoding error, still write what was decoded
      --png-level N    PNG OUTPUT compression, 0-9 (default 1, the encoder's fast mode; frames
                       are always written in the fast mode)
      --interlace      write an Adam7-interlaced PNG OUTPUT
      --no-reduce      keep the pixel format in the PNG (no palette or 1/2/4-bit gray)
    """

    static let fetchHelp = """
    imagefeed fetch URL -o OUTPUT [--header "Name: value"]... [--cache-dir DIR] [--thumbnail PX] [--frames DIR] [--timeout SECONDS] [--colorspace srgb|original] [--intent perceptual|relative|saturation]

    Loads a URL with ImageLoader, printing progress and every preview, then
    `source: network|disk|revalidated|memory` and `http: STATUS` (or `http: none`).
      URL              http://, https:// or file:// (a plain path is a file)
      -o OUTPUT        where to write the final image: .png or .pam
      --header H       a request header field "Name: value" (repeatable), e.g. an Authorization or Cookie
      --cache-dir DIR  keep the disk cache in DIR between runs, with HTTP freshness and revalidation
                       (default: no disk cache, always downloaded)
      --thumbnail PX   deliver the image with its longer side at most PX pixels
      --frames DIR     write each preview as DIR/frame-0001.png, frame-0002.png, ... (encoded in the
                       background, so every preview becomes a frame)
      --timeout SECS   fail after SECS seconds without data (default 30)
      --colorspace CS  srgb (what the loader delivers by default) or original (default here: the file's samples)
      --intent I       perceptual (default), relative or saturation: see imagefeed help decode
    """

    static let demoHelp = """
    imagefeed demo [--out DIR]

    Serves a progressive JPEG, an Adam7 PNG and an interlaced GIF from a slow local server, loads
    them and writes every frame and DIR/contact-sheet.png, the pictures sharpening step by step.
      --out DIR        where to write (default demo-output)
    """

    static let usage = """
    usage: imagefeed decode INPUT -o OUTPUT [options]     decode a local file incrementally
           imagefeed fetch URL -o OUTPUT [options]        load a URL with previews and caching
           imagefeed demo [--out DIR]                     progressive loading over a slow local link
           imagefeed help [COMMAND]                       this text, or a command's options

    """ + "\n" + decodeHelp + "\n\n" + fetchHelp + "\n\n" + demoHelp

    /// The help of `command`, or nil if there is no such command.
    static func help(for command: String) -> String? {
        switch command {
        case "decode": return decodeHelp
        case "fetch": return fetchHelp
        case "demo": return demoHelp
        default: return nil
        }
    }

    /// Runs the command; returns the exit status (0 success, 1 decoding, network or I/O error, 2 bad arguments).
    static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        guard let subcommand = arguments.first else {
            console.writeError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h"), let help = help(for: subcommand) {
            console.write(help)
            return 0
        }
        do {
            switch subcommand {
            case "decode":
                return DecodeCommand(options: try DecodeCommandOptions(parsing: rest)).run()
            case "fetch":
                return FetchCommand(options: try FetchCommandOptions(parsing: rest), console: console).run()
            case "demo":
                return DemoCommand(options: try DemoCommandOptions(parsing: rest), console: console).run()
            case "-h", "--help", "help":
                guard let topic = rest.first else {
                    console.write(usage)
                    return 0
                }
                guard let help = help(for: topic) else {
                    console.writeError("imagefeed: no command '\(topic)'\n\n\(usage)")
                    return 2
                }
                console.write(help)
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
