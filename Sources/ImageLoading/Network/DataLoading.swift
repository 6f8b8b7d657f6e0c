import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``DataLoading`` reports for one request, in this order: one `response`, any number of
/// `data`, then exactly one `completed` (a `completed` may also come without a response, for a
/// connection that failed before it).
public enum DataLoadingEvent: Sendable {
    /// The response head (status and header fields for HTTP).
    case response(URLResponse)
    /// The next piece of the body (after any `Content-Encoding` was undone, as URLSession does).
    case data(Data)
    /// The transfer ended: `nil` on success, else the transport error (`URLError` for URLSession).
    case completed((any Error)?)
}

/// A transfer under way that can be stopped.
public protocol DataLoadingTask: Sendable {
    /// Stops the transfer; no event is reported after this returns, or only a `completed`.
    func cancel()
}

/// The network below the loader: the pipeline asks for bytes through this, so tests can script
/// their arrival (chunks, stalls, drops, statuses) without sockets or sleeps.
///
/// ``URLSessionDataLoader`` is the default. An implementation reports the events of one request
/// in order, never two at once for one request (events of different requests may interleave).
public protocol DataLoading: Sendable {
    /// Starts `request`; `events` receives its ``DataLoadingEvent``s.
    func startLoading(_ request: URLRequest,
                      events: @escaping @Sendable (DataLoadingEvent) -> Void) -> any DataLoadingTask
}
