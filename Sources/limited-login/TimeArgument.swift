import Foundation

/// A time as the CLI takes it: seconds since 1970 (`1900000000`) or an ISO 8601 time (`2030-01-01T00:00:00Z`).
enum TimeArgument {
    /// Seconds since 1970, or nil when `text` is neither form.
    static func epoch(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        return ISO8601DateFormatter().date(from: text).map { Int64($0.timeIntervalSince1970) }
    }
}
