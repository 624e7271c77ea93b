import Foundation

/// Work the server's start needs that does not depend on the store, done beside it.
enum StartWarmUp {
    /// Loads the Gregorian calendar and the GMT zone (ICU data), as formatting an HTTP `Date` does.
    static func loadCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        _ = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: Date())
        _ = Date.now.formatted(Date.FormatStyle(timeZone: .gmt).weekday(.abbreviated))
    }
}
