import Foundation

/// A single `Range: bytes=first-[last]` request (RFC 9110 14.1.2); other forms are ignored.
struct ByteRangeRequest: Equatable {
    /// First byte offset wanted.
    var first: Int
    /// Last byte offset wanted (inclusive), if given.
    var last: Int?

    /// Parses the header value; nil for anything but one `bytes=` range with a start.
    init?(headerValue: String) {
        let value = headerValue.trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let spec = value.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0].trimmingCharacters(in: .whitespaces)), first >= 0 else { return nil }
        let lastText = parts[1].trimmingCharacters(in: .whitespaces)
        if lastText.isEmpty {
            last = nil
        } else {
            guard let last = Int(lastText), last >= first else { return nil }
            self.last = last
        }
        self.first = first
    }

    /// The offsets to send for a body of `length` bytes; nil when unsatisfiable (416).
    func clamped(toLength length: Int) -> ClosedRange<Int>? {
        guard first < length else { return nil }
        return first...min(last ?? (length - 1), length - 1)
    }
}
