/// Why reading a VP8L structure stopped early.
enum VP8LFailure: Error, Equatable {
    /// The window ended before the structure did (not an error unless the data is complete).
    case needMoreData
    /// The bitstream breaks RFC 9649; the words say how.
    case invalid(String)
    /// A structure sized by the data exceeds a configured limit.
    case limitExceeded(String)

    /// The words of the failure.
    var message: String {
        switch self {
        case .needMoreData: return "the data ends early"
        case .invalid(let message), .limitExceeded(let message): return message
        }
    }

    /// Whether a limit (not the data) stopped decoding.
    var isLimit: Bool {
        if case .limitExceeded = self { return true }
        return false
    }
}
