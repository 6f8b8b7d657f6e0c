/// One request the loopback server received, and how its response ended.
public struct RecordedRequest: Sendable {
    /// How the exchange ended.
    public enum Outcome: Sendable, Equatable {
        /// Still sending (or waiting).
        case inProgress
        /// The whole response was sent.
        case completed
        /// The client closed the connection after this many body bytes had been sent.
        case clientClosed(bodyBytesSent: Int)
        /// The route dropped the connection on purpose after this many body bytes.
        case dropped(bodyBytesSent: Int)
    }

    /// Arrival order, from 0.
    public var index: Int
    /// `GET`, `HEAD`…
    public var method: String
    /// The request target, e.g. `/a.png`.
    public var path: String
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The status code answered.
    public var status: Int
    /// How it ended.
    public var outcome: Outcome
}
