/// tIME (PNG 11.3.6.1): the time of the last image modification, in UTC.
public struct PNGTimestamp: Sendable, Hashable {
    /// Full year, e.g. 2024.
    public var year: Int
    /// 1 ... 12.
    public var month: Int
    /// 1 ... 31.
    public var day: Int
    /// 0 ... 23.
    public var hour: Int
    /// 0 ... 59.
    public var minute: Int
    /// 0 ... 60 (60 for leap seconds).
    public var second: Int

    /// Makes a timestamp.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second
    }
}
