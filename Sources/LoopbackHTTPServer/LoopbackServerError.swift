/// Why the loopback server could not start.
public enum LoopbackServerError: Error, CustomStringConvertible {
    /// A POSIX call failed with `errno`.
    case system(String, Int32)

    /// `bind failed (errno 98)`.
    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call) failed (errno \(code))"
        }
    }
}
