import Foundation

/// The request line and header fields of an HTTP/1.1 request (RFC 9112 3 and 5).
struct HTTPRequestHead {
    /// Largest request head accepted; the tests' requests are a few hundred bytes.
    static let maximumSize = 64 * 1024

    var method: String
    var path: String
    /// Field names lower-cased; a repeated field keeps its last value.
    var headers: [String: String]

    /// Reads a head from `socket`, waiting at most `timeout` in total; nil on a malformed or missing head.
    static func read(from socket: Socket, timeout: TimeInterval) -> HTTPRequestHead? {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        let terminator: [UInt8] = [13, 10, 13, 10]
        while bytes.count < maximumSize {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let piece = socket.receive(capacity: 4096, timeout: remaining) else { return nil }
            bytes += piece
            // The head ends at the first empty line; a GET has no body to read after it.
            if let end = firstIndex(of: terminator, in: bytes) { return parse(Array(bytes[..<end])) }
        }
        return nil
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    private static func parse(_ head: [UInt8]) -> HTTPRequestHead? {
        guard let text = String(bytes: head, encoding: .utf8) else { return nil }
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPRequestHead(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }
}
