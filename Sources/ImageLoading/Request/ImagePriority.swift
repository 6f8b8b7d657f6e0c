/// Download priority: the queue starts higher priorities first, first come first served within one.
public enum ImagePriority: Int, Sendable, Comparable, CaseIterable {
    /// Prefetching far ahead.
    case veryLow = 0
    /// Prefetching (the default for ``ImageLoader/prefetch(_:priority:)``).
    case low = 1
    /// Default.
    case normal = 2
    /// Visible soon.
    case high = 3
    /// Visible now.
    case veryHigh = 4

    /// Orders by urgency.
    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
