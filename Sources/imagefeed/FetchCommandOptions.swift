import Foundation
import ImageCore

/// The arguments of `imagefeed fetch`.
struct FetchCommandOptions {
    /// The schemes `ImageLoader` loads.
    static let supportedSchemes: Set<String> = ["http", "https", "file"]

    /// What to load: an http, https or file URL (a plain path is taken as a file).
    var url: URL
    var output: String
    var framesDirectory: String?
    /// Longest side of the delivered image (`ImageRequest.maxPixelSize`); nil keeps the full size.
    var thumbnailSize: Int?
    /// Seconds without a received byte before the load fails.
    var timeout: TimeInterval = 30
    /// Request header fields from `--header "Name: value"`, in order.
    var headers: [(name: String, value: String)] = []
    /// The disk cache folder (`--cache-dir`); nil: no disk cache and a fresh download every run.
    var cacheDirectory: String?
    /// `--colorspace srgb|original`; original by default, like `imagefeed decode`, so the files
    /// written hold the file's own samples unless conversion is asked for.
    var colorSpace: OutputColorSpace = .original
    /// `--intent perceptual|relative|saturation` for LUT-based profiles (default perceptual).
    var intent: RenderingIntent = .perceptual

    init(parsing arguments: [String]) throws {
        var scanner = ArgumentScanner(arguments)
        var location: String?, output: String?
        while let argument = scanner.next() {
            switch argument {
            case "-o", "--output":
                output = try scanner.value(after: argument)
            case "--frames":
                framesDirectory = try scanner.value(after: argument)
            case "--colorspace":
                colorSpace = try ColorArguments.colorSpace(try scanner.value(after: argument))
            case "--intent":
                intent = try ColorArguments.intent(try scanner.value(after: argument))
            case "--thumbnail":
                thumbnailSize = try scanner.positiveInteger(after: argument, unit: "pixels")
            case "--timeout":
                timeout = TimeInterval(try scanner.positiveInteger(after: argument, unit: "seconds"))
            case "--header", "-H":
                headers.append(try Self.header(from: try scanner.value(after: argument)))
            case "--cache-dir":
                cacheDirectory = try scanner.value(after: argument)
            default:
                try ArgumentScanner.rejectUnknownOption(argument)
                guard location == nil else { throw ArgumentError(message: "more than one URL: '\(location ?? "")' and '\(argument)'") }
                location = argument
            }
        }
        guard let location else { throw ArgumentError(message: "no URL given") }
        guard let output else { throw ArgumentError(message: "no output given (-o OUTPUT)") }
        guard ImageFileWriter.Kind(path: output) != nil else {
            throw ArgumentError(message: "OUTPUT must end in .png or .pam: '\(output)'")
        }
        self.url = try Self.url(from: location)
        self.output = output
    }

    /// `text` as a URL: with a scheme it must be one `ImageLoader` supports; without one it is a file path.
    static func url(from text: String) throws -> URL {
        guard text.contains("://") else { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), supportedSchemes.contains(scheme) else {
            throw ArgumentError(message: "URL must be http, https or file: '\(text)'")
        }
        return url
    }

    /// `Name: value` as a header field: the name a token (RFC 9110 5.6.2), the value trimmed.
    static func header(from text: String) throws -> (name: String, value: String) {
        let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~")
            .union(CharacterSet(charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        guard let colon = text.firstIndex(of: ":") else {
            throw ArgumentError(message: "--header needs 'Name: value', not '\(text)'")
        }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(tokenCharacters.contains),
              !value.contains("\r"), !value.contains("\n") else {
            throw ArgumentError(message: "--header needs 'Name: value' with a plain field name, not '\(text)'")
        }
        return (name, value)
    }
}
