/// Walks a subcommand's arguments one at a time, taking flag values as it goes.
struct ArgumentScanner {
    private let arguments: [String]
    private var index = 0

    /// Starts before the first argument.
    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument, or nil at the end.
    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// The value following `flag`, e.g. the `DIR` of `--frames DIR`.
    mutating func value(after flag: String) throws -> String {
        guard let value = next() else { throw ArgumentError(message: "\(flag) needs a value") }
        return value
    }

    /// The positive whole number following `flag`, named `unit` in the message if it is not one.
    mutating func positiveInteger(after flag: String, unit: String) throws -> Int {
        let text = try value(after: flag)
        guard let number = Int(text), number > 0 else {
            throw ArgumentError(message: "\(flag) needs a positive number of \(unit), not '\(text)'")
        }
        return number
    }

    /// Rejects `argument` if it looks like an option none of the cases took.
    static func rejectUnknownOption(_ argument: String) throws {
        if argument.hasPrefix("-") && argument != "-" { throw ArgumentError(message: "unknown option '\(argument)'") }
    }
}
