import Foundation

/// A `Content-Range: bytes first-last/total` response field (RFC 9110 14.4); `total` may be `*`.
struct ContentRange: Equatable {
    var first: Int
    var last: Int
    var total: Int?

    /// Parses the field value; nil unless it is a satisfied `bytes` range with first ≤ last.
    init?(_ value: String) {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 0, first <= last else {
            return nil
        }
        self.first = first
        self.last = last
        total = parts[1] == "*" ? nil : Int(parts[1])
    }
}
