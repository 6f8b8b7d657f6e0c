import Foundation

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

    init(parsing arguments: [String]) throws {
        var scanner = ArgumentScanner(arguments)
        var location: String?, output: String?
        while let argument = scanner.next() {
            switch argument {
            case "-o", "--output":
                output = try scanner.value(after: argument)
            case "--frames":
                framesDirectory = try scanner.value(after: argument)
            case "--thumbnail":
                thumbnailSize = try scanner.positiveInteger(after: argument, unit: "pixels")
            case "--timeout":
                timeout = TimeInterval(try scanner.positiveInteger(after: argument, unit: "seconds"))
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
}
