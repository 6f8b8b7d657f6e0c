import Foundation

/// HTTP dates (RFC 9110 5.6.7): the IMF-fixdate form `Sun, 06 Nov 1994 08:49:37 GMT` is sent and
/// preferred; the obsolete RFC 850 and asctime forms are accepted when read.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",   // IMF-fixdate
        "EEEE, dd-MMM-yy HH:mm:ss zzz",    // RFC 850
        "EEE MMM d HH:mm:ss yyyy",         // asctime
    ]

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    /// The date a field value names; nil if it is none of the three forms (e.g. `Expires: 0`).
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // A formatter per call: DateFormatter is not safe to share between threads on every platform.
        for format in formats {
            if let date = formatter(format).date(from: trimmed) { return date }
        }
        return nil
    }

    /// `date` as an IMF-fixdate.
    static func format(_ date: Date) -> String {
        formatter(formats[0]).string(from: date)
    }
}
