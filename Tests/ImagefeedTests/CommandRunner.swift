import Foundation
@testable import imagefeed
import XCTest

/// What one in-process run of a command printed and returned.
struct CommandResult {
    /// The exit status.
    var status: Int32
    /// Lines written to the console's stdout side.
    var output: [String]
    /// Lines written to the console's stderr side.
    var errors: [String]
}

/// Runs commands in-process with a recording console, on their own thread, so a hang fails the
/// test after a deadline instead of stopping the suite.
enum CommandRunner {
    /// Runs `ImagefeedCommand.run(arguments)`; nil (and a test failure) if it takes longer than `timeout`.
    static func run(_ arguments: [String], timeout: TimeInterval = 30,
                    file: StaticString = #filePath, line: UInt = #line) -> CommandResult? {
        run(timeout: timeout, file: file, line: line) { console in ImagefeedCommand.run(arguments, console: console) }
    }

    /// Runs `body` with a recording console on a new thread; nil (and a test failure) after `timeout`.
    static func run(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line,
                    _ body: @escaping @Sendable (Console) -> Int32) -> CommandResult? {
        let recorder = ConsoleRecorder()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            recorder.finish(status: body(recorder.console))
            done.signal()
        }
        thread.start()
        guard done.wait(timeout: .now() + timeout) == .success else {
            XCTFail("the command did not finish within \(timeout) s", file: file, line: line)
            return nil
        }
        return recorder.result
    }
}

/// Collects console lines from whichever thread writes them.
private final class ConsoleRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = CommandResult(status: -1, output: [], errors: [])

    var console: Console {
        Console(write: { [self] line in lock.withLock { collected.output.append(line) } },
                writeError: { [self] line in lock.withLock { collected.errors.append(line) } })
    }

    func finish(status: Int32) { lock.withLock { collected.status = status } }

    var result: CommandResult { lock.withLock { collected } }
}
