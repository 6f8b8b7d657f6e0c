import Foundation

/// HTTP dates (RFC 9110 5.6.7): the IMF-fixdate form `Sun, 06 Nov 1994 08:49:37 GMT` is sent and
/// preferred; the obsolete RFC 850 and asctime forms are accepted when read.
///
/// IMF-fixdate, what every current server sends, is parsed by hand: a `DateFormatter` costs
/// far more to make than a whole small image costs to load, and every response carries a date
/// or two. The obsolete forms fall back to a formatter.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date a field value names; nil if it is none of the three forms (e.g. `Expires: 0`).
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = parseIMFFixdate(trimmed) { return date }
        for format in ["EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            if let date = formatter(format).date(from: trimmed) { return date }
        }
        return nil
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`: fixed positions, 29 characters.
    static func parseIMFFixdate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 32, bytes[7] == 32, bytes[11] == 32,
              bytes[16] == 32, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 32,
              Array(bytes[26...]) == Array("GMT".utf8) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        let monthName = String(decoding: bytes[8..<11], as: UTF8.self)
        guard let day = number(5..<7), let monthIndex = months.firstIndex(of: monthName), let year = number(12..<16),
              let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
              (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the era-based method: 400-year
    /// eras of 146 097 days, years starting in March so the leap day falls last).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    /// `date` as an IMF-fixdate.
    static func format(_ date: Date) -> String {
        formatter("EEE, dd MMM yyyy HH:mm:ss zzz").string(from: date)
    }
}
