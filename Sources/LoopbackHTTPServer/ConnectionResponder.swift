import Deflate
import Foundation

/// Answers one connection: reads the request head, picks the route, sends the paced response,
/// records how it ended, closes. Runs on the connection's own thread.
struct ConnectionResponder {
    /// Longest wait for the request head or for room to send.
    static let ioTimeout: TimeInterval = 5
    /// Granularity of pauses: how often a sleeping sender looks for a closed peer or a stopping server.
    static let pauseStep: TimeInterval = 0.005

    let server: LoopbackHTTPServer
    let socket: Socket

    func run() {
        defer { socket.close() }
        guard let head = HTTPRequestHead.read(from: socket, timeout: Self.ioTimeout) else { return }
        let (index, route, drop, fail) = server.register(head)
        let outcome = respond(to: head, route: route, drop: drop, fail: fail, index: index)
        server.recordOutcome(outcome, for: index)
    }

    private func respond(to head: HTTPRequestHead, route: HTTPRoute?, drop: Bool, fail: Bool,
                         index: Int) -> RecordedRequest.Outcome {
        let isHead = head.method == "HEAD"
        guard let route else {
            return sendShort(404, headers: [("Content-Type", "text/plain")], body: "no route for \(head.path)\n",
                             index: index, isHead: isHead)
        }
        if route.initialDelay > 0, !sleepWatchingPeer(route.initialDelay) { return .clientClosed(bodyBytesSent: 0) }
        if let missing = route.requiredHeaders.first(where: { head.headers[$0.key.lowercased()] != $0.value }) {
            let isAuthorization = missing.key.lowercased() == "authorization"
            var headers = [("Content-Type", "text/plain")]
            if isAuthorization { headers.append(("WWW-Authenticate", "Basic realm=\"test\"")) }
            return sendShort(isAuthorization ? 401 : 403, headers: headers, body: "",
                             index: index, isHead: isHead)
        }
        if fail {
            return sendShort(route.failureStatus, headers: [("Content-Type", "text/plain")] + route.failureHeaders.map { ($0.name, $0.value) },
                             body: "status \(route.failureStatus)\n", index: index, isHead: isHead)
        }
        var status = route.status
        var body = route.body
        var headers: [(String, String)] = [("Content-Type", route.contentType)]
        if let etag = route.etag { headers.append(("ETag", etag)) }
        if let lastModified = route.lastModified { headers.append(("Last-Modified", lastModified)) }
        if let location = route.location { headers.append(("Location", location)) }
        if route.acceptsRanges { headers.append(("Accept-Ranges", "bytes")) }
        headers += route.headers.map { ($0.name, $0.value) }
        if status == 200, route.answersConditionalRequests, isNotModified(head, route: route) {
            server.recordStatus(304, for: index)
            return send(status: 304, headers: headers, body: [], route: route, dropAfter: nil, isHead: isHead,
                        contentLength: nil)
        }
        if route.contentEncoding == "gzip" {
            body = Deflater.compress(body, format: .gzip, level: 6)
            headers.append(("Content-Encoding", "gzip"))
        }
        if status == 200, route.acceptsRanges, let rangeHeader = head.headers["range"],
           let range = ByteRangeRequest(headerValue: rangeHeader), validatorMatches(head.headers["if-range"], route: route) {
            if let span = range.clamped(toLength: body.count) {
                status = 206
                headers.append(("Content-Range", "bytes \(span.lowerBound)-\(span.upperBound)/\(body.count)"))
                body = Array(body[span])
            } else {
                status = 416
                headers.append(("Content-Range", "bytes */\(body.count)"))
                body = []
            }
        }
        server.recordStatus(status, for: index)
        let length = route.chunkedEncoding ? nil
            : (route.sendsContentLength || route.status != 200) ? (route.declaredContentLength ?? body.count) : nil
        return send(status: status, headers: headers, body: body, route: route,
                    dropAfter: drop ? route.dropAfterBytes : nil, isHead: isHead, contentLength: length)
    }

    /// A small complete answer (errors, 401/403, injected failures), sent at once.
    private func sendShort(_ status: Int, headers: [(String, String)], body: String, index: Int,
                           isHead: Bool) -> RecordedRequest.Outcome {
        server.recordStatus(status, for: index)
        let bytes = Array(body.utf8)
        return send(status: status, headers: headers, body: bytes, route: HTTPRoute(body: []), dropAfter: nil,
                    isHead: isHead, contentLength: bytes.count)
    }

    /// RFC 9110 13.1.2 / 13.1.3 / 13.2.2: `If-None-Match` (weak comparison, `*`, lists) decides
    /// when present; otherwise `If-Modified-Since` against `Last-Modified`.
    private func isNotModified(_ head: HTTPRequestHead, route: HTTPRoute) -> Bool {
        if let ifNoneMatch = head.headers["if-none-match"] {
            guard let etag = route.etag else { return false }
            let opaque = { (tag: String) in tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }
            let candidates = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return candidates.contains("*") || candidates.contains { opaque($0) == opaque(etag) }
        }
        if let ifModifiedSince = head.headers["if-modified-since"], let lastModified = route.lastModified {
            return ifModifiedSince == lastModified
        }
        return false
    }

    /// RFC 9110 13.1.5: without `If-Range` the range applies; with it, only if it names the current validator.
    private func validatorMatches(_ ifRange: String?, route: HTTPRoute) -> Bool {
        guard let ifRange else { return true }
        return ifRange == route.etag || ifRange == route.lastModified
    }

    /// Sends the head and the paced body; `contentLength` nil sends none (chunked, or the body
    /// ends when the connection closes).
    private func send(status: Int, headers: [(String, String)], body: [UInt8], route: HTTPRoute,
                      dropAfter: Int?, isHead: Bool, contentLength: Int?) -> RecordedRequest.Outcome {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if route.chunkedEncoding, status != 304 {
            head += "Transfer-Encoding: chunked\r\n"
        } else if let contentLength {
            head += "Content-Length: \(contentLength)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        guard socket.send(ArraySlice(head.utf8), timeout: Self.ioTimeout) else { return .clientClosed(bodyBytesSent: 0) }
        if isHead { return .completed }

        var sent = 0
        let pauseOffsets = route.pauses.keys.sorted()
        while sent < body.count {
            if let dropAfter, sent >= dropAfter { return .dropped(bodyBytesSent: sent) }
            var size = min(route.chunkSize, body.count - sent)
            if let dropAfter { size = min(size, dropAfter - sent) }
            if let nextPause = pauseOffsets.first(where: { $0 > sent }) { size = min(size, nextPause - sent) }
            let piece = body[sent..<(sent + size)]
            let framed: ArraySlice<UInt8> = route.chunkedEncoding
                ? ArraySlice(Array(String(size, radix: 16).utf8) + [13, 10] + piece + [13, 10]) : piece
            guard socket.send(framed, timeout: Self.ioTimeout) else { return .clientClosed(bodyBytesSent: sent) }
            sent += size
            var pause = route.pauses[sent] ?? 0
            if sent < body.count { pause += route.pauseBetweenChunks }
            if pause > 0, !sleepWatchingPeer(pause) { return .clientClosed(bodyBytesSent: sent) }
        }
        if let dropAfter, sent >= dropAfter, dropAfter < body.count { return .dropped(bodyBytesSent: sent) }
        if route.chunkedEncoding, !socket.send(ArraySlice("0\r\n\r\n".utf8), timeout: Self.ioTimeout) {
            return .clientClosed(bodyBytesSent: sent)
        }
        return .completed
    }

    /// Sleeps `seconds` in small steps; false as soon as the client closes or the server stops.
    private func sleepWatchingPeer(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if server.isStopping || socket.peerHasClosed() { return false }
            Thread.sleep(forTimeInterval: min(Self.pauseStep, max(deadline.timeIntervalSinceNow, 0)))
        }
        return !socket.peerHasClosed()
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 429: return "Too Many Requests"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status"
        }
    }
}
