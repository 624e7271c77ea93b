import Foundation

/// The clock form's date field (`<input type="datetime-local">`, read as UTC): a time shown in it, and
/// what it sends read back (also a full ISO 8601 time, with `Z` or an offset).
enum ConsoleClockInput {
    static func format(_ time: Int64) -> String {
        formatter("yyyy-MM-dd'T'HH:mm:ss").string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// Seconds since 1970, or nil for text that is no such time.
    static func parse(_ text: String) -> Int64? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let date = ISO8601DateFormatter().date(from: text) { return Int64(date.timeIntervalSince1970) }
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            if let date = formatter(format).date(from: text) { return Int64(date.timeIntervalSince1970) }
        }
        return nil
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
