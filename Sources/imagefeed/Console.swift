import Foundation

/// Where a command's messages go: normal lines to stdout, failures to stderr. Tests record both.
struct Console: Sendable {
    /// Writes one line of normal output.
    let write: @Sendable (String) -> Void
    /// Writes one line (or block) about a failure.
    let writeError: @Sendable (String) -> Void

    /// The process's stdout and stderr.
    static let standard = Console(write: { print($0) }, writeError: { ImagefeedCommand.printError($0) })
}
