import Foundation

/// When a failed download is tried again (drops, timeouts, `408`, `429`, `5xx`).
///
/// The delay before retry *n* (from 1) is `baseDelay × 2^(n−1)`, at most ``maximumDelay``; a
/// `Retry-After` (seconds or an HTTP date, RFC 9110 10.2.3) replaces it, also capped. A retry
/// resumes with `Range` where the first attempt allows it. A URL is remembered as failed only
/// once the retries are spent.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt (default 2).
    public var maximumRetries: Int
    /// The first retry's delay in seconds (default 0.5).
    public var baseDelay: TimeInterval
    /// The longest delay, also for `Retry-After` (default 10 s).
    public var maximumDelay: TimeInterval
    /// HTTP statuses worth retrying (default 408, 429, 500, 502, 503, 504).
    public var retriedStatuses: Set<Int>

    /// Makes a policy.
    public init(maximumRetries: Int = 2, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 10,
                retriedStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.retriedStatuses = retriedStatuses
    }

    /// Never retry.
    public static let never = RetryPolicy(maximumRetries: 0)

    /// Whether `error` is transient.
    func isRetryable(_ error: ImageLoadingError) -> Bool {
        switch error {
        case .httpStatus(let status): return retriedStatuses.contains(status)
        case .timedOut: return true
        case .network(let code, _):
            return Self.transientNetworkCodes.contains(code)
        default: return false
        }
    }

    /// URLError codes of transient faults: the connection dropped, timed out, or could not be made.
    /// FoundationNetworking reports a body cut short ("transfer closed with N bytes remaining")
    /// as `unknown` (-1), where Apple platforms say `networkConnectionLost`.
    static let transientNetworkCodes: Set<Int> = [URLError.unknown.rawValue,
        URLError.networkConnectionLost.rawValue, URLError.timedOut.rawValue, URLError.cannotConnectToHost.rawValue,
        URLError.notConnectedToInternet.rawValue, URLError.dnsLookupFailed.rawValue, URLError.cannotFindHost.rawValue,
        URLError.secureConnectionFailed.rawValue, URLError.badServerResponse.rawValue,
    ]

    /// The delay before retry `number` (1 = the first retry), given the response's `Retry-After`.
    func delay(beforeRetry number: Int, retryAfter: String?, now: Date = Date()) -> TimeInterval {
        if let retryAfter {
            let text = retryAfter.trimmingCharacters(in: .whitespaces)
            if let seconds = TimeInterval(text) { return min(max(seconds, 0), maximumDelay) }
            if let date = HTTPDate.parse(text) { return min(max(date.timeIntervalSince(now), 0), maximumDelay) }
        }
        let exponent = Double(max(number - 1, 0))
        return min(baseDelay * pow(2, exponent), maximumDelay)
    }
}
