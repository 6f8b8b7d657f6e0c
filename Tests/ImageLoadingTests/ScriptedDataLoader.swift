import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ImageLoading

/// A ``DataLoading`` whose transfers the test drives by hand: it sees each request, then says
/// when the response head, each piece of body and the end arrive. No sockets, no sleeps.
final class ScriptedDataLoader: DataLoading, @unchecked Sendable {
    /// One request the pipeline started.
    final class Transfer: DataLoadingTask, @unchecked Sendable {
        let request: URLRequest
        private let events: @Sendable (DataLoadingEvent) -> Void
        private let lock = NSLock()
        private var cancelledFlag = false

        init(request: URLRequest, events: @escaping @Sendable (DataLoadingEvent) -> Void) {
            self.request = request
            self.events = events
        }

        /// Whether the pipeline cancelled it.
        var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelledFlag }

        func cancel() { lock.lock(); cancelledFlag = true; lock.unlock() }

        /// A request header (case-insensitive).
        func header(_ name: String) -> String? { request.value(forHTTPHeaderField: name) }

        /// Sends the response head.
        func respond(status: Int = 200, headers: [String: String] = [:]) {
            guard let url = request.url,
                  let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            else { return }
            deliver(.response(response))
        }

        /// Sends body bytes.
        func send<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 { deliver(.data(Data(bytes))) }

        /// Ends the transfer successfully.
        func finish() { deliver(.completed(nil)) }

        /// Ends the transfer with a transport error.
        func fail(_ code: URLError.Code = .networkConnectionLost) { deliver(.completed(URLError(code))) }

        /// Responds 200 with `body` (and `headers`) and finishes.
        func serve(_ body: [UInt8], headers: [String: String] = [:]) {
            var fields = headers
            fields["Content-Length"] = fields["Content-Length"] ?? String(body.count)
            respond(status: 200, headers: fields)
            send(body)
            finish()
        }

        private func deliver(_ event: DataLoadingEvent) {
            // A cancelled transfer reports nothing more, as URLSessionDataLoader promises.
            guard !isCancelled else { return }
            events(event)
        }
    }

    private let lock = NSLock()
    private var transfers: [Transfer] = []

    func startLoading(_ request: URLRequest, events: @escaping @Sendable (DataLoadingEvent) -> Void) -> any DataLoadingTask {
        let transfer = Transfer(request: request, events: events)
        lock.lock()
        transfers.append(transfer)
        lock.unlock()
        return transfer
    }

    /// Every transfer started so far, in order.
    var started: [Transfer] { lock.lock(); defer { lock.unlock() }; return transfers }

    /// Waits (up to `seconds`) until transfer number `index` (from 0) has started.
    func transfer(_ index: Int, seconds: TimeInterval = 5) async throws -> Transfer {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let all = started
            if all.count > index { return all[index] }
            if Date() > deadline { throw TestTimeout(seconds: seconds) }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }
}
