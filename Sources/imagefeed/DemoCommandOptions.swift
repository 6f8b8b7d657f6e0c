/// The arguments of `imagefeed demo`.
struct DemoCommandOptions {
    /// Where the frames, finals and the contact sheet go.
    var outputDirectory = "demo-output"

    init(parsing arguments: [String]) throws {
        var scanner = ArgumentScanner(arguments)
        while let argument = scanner.next() {
            switch argument {
            case "--out":
                outputDirectory = try scanner.value(after: argument)
            default:
                try ArgumentScanner.rejectUnknownOption(argument)
                throw ArgumentError(message: "demo takes no input, only --out DIR (got '\(argument)')")
            }
        }
    }
}
