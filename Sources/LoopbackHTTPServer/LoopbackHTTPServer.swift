import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 (ephemeral port) for loader tests and demos.
///
/// It serves ``HTTPRoute``s: throttled bodies with pauses, with or without `Content-Length`,
/// chunked transfer coding, connections dropped after N bytes, any status, `ETag` /
/// `Last-Modified`, `Range` / `If-Range` (206). It records every request and whether the client
/// closed the connection early. Each connection gets its own thread and `Connection: close`;
/// every wait is bounded, and ``stop()`` ends everything within about a second.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// The port the kernel assigned.
    public let port: UInt16

    private let listener: Socket
    fileprivate let lock = NSLock()
    // Guarded by `lock`:
    private var routes: [String: HTTPRoute] = [:]
    private var recorded: [RecordedRequest] = []
    private var dropsDone: [String: Int] = [:]
    private var failuresDone: [String: Int] = [:]
    private var stopping = false
    private var liveThreads = 0

    /// Starts listening and accepting on a background thread.
    public init() throws {
        (listener, port) = try Socket.listenOnLoopback()
        startThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        components.path = path.hasPrefix("/") ? path : "/" + path
        // With a host, a path starting with "/" always forms a URL; the fallback is never taken.
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Serves `route` at `path` (replacing any route there).
    public func setRoute(_ path: String, _ route: HTTPRoute) {
        locked { routes[path] = route }
    }

    /// Every request so far, in arrival order.
    public var requests: [RecordedRequest] { locked { recorded } }

    /// Requests for `path` so far.
    public func requestCount(path: String) -> Int { requests.filter { $0.path == path }.count }

    /// Requests for `path` whose client closed the connection before the response was complete.
    public func clientClosedCount(path: String) -> Int {
        requests.filter { request in
            guard request.path == path, case .clientClosed = request.outcome else { return false }
            return true
        }.count
    }

    /// Waits (polling every 5 ms) until `condition` holds or `timeout` passes; returns whether it held.
    public func wait(timeout: TimeInterval, until condition: (LoopbackHTTPServer) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition(self)
    }

    /// Stops accepting, ends open connections and waits (at most 2 s) for their threads.
    public func stop() {
        let alreadyStopping = locked { () -> Bool in
            defer { stopping = true }
            return stopping
        }
        if alreadyStopping { return }
        listener.shutdownBoth()
        let deadline = Date().addingTimeInterval(2)
        while locked({ liveThreads }) > 0, Date() < deadline { usleep(5_000) }
        listener.close()
    }

    var isStopping: Bool { locked { stopping } }

    private func startThread(_ body: @escaping @Sendable () -> Void) {
        locked { liveThreads += 1 }
        let thread = Thread { [self] in
            body()
            locked { liveThreads -= 1 }
        }
        thread.start()
    }

    private func acceptLoop() {
        while !isStopping {
            guard let connection = listener.accept(timeout: 0.05) else { continue }
            let box = UncheckedSocket(socket: connection)
            startThread { [self] in
                ConnectionResponder(server: self, socket: box.socket).run()
            }
        }
    }

    // MARK: Bookkeeping used by ConnectionResponder

    /// Records an arriving request and picks its route; returns the record index, the route and
    /// whether this response must be dropped.
    func register(_ head: HTTPRequestHead) -> (index: Int, route: HTTPRoute?, drop: Bool, fail: Bool) {
        locked {
            let route = routes[head.path]
            var drop = false, fail = false
            if let route, route.dropAfterBytes != nil, dropsDone[head.path, default: 0] < route.dropCount {
                dropsDone[head.path, default: 0] += 1
                drop = true
            }
            if let route, failuresDone[head.path, default: 0] < route.failFirst {
                failuresDone[head.path, default: 0] += 1
                fail = true
            }
            let index = recorded.count
            recorded.append(RecordedRequest(index: index, method: head.method, path: head.path, headers: head.headers,
                                            status: 0, outcome: .inProgress))
            return (index, route, drop, fail)
        }
    }

    /// Sets the status sent for request `index`.
    func recordStatus(_ status: Int, for index: Int) {
        locked { recorded[index].status = status }
    }

    /// Sets how request `index` ended.
    func recordOutcome(_ outcome: RecordedRequest.Outcome, for index: Int) {
        locked { recorded[index].outcome = outcome }
    }
}

extension LoopbackHTTPServer {
    /// Runs `body` holding the lock (`NSLock.withLock` needs macOS 14).
    fileprivate func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// Carries a socket into the connection thread (used by that thread alone from then on).
private struct UncheckedSocket: @unchecked Sendable {
    let socket: Socket
}
