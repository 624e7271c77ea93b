#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time of a log line, in UTC, from the system clock and arithmetic alone: no time-zone file read,
/// no formatter, no lock. (swift-log's stream handler called `localtime`, which reads /etc/localtime
/// for every line; glibc's `gmtime_r` takes the time-zone lock that every thread shares, for every line.) A log's times are UTC, so that lines from several nodes, or from before and after a
/// change to daylight saving time, sort as they happened.
enum LogTimestamp {
    /// `2026-11-27T07:41:39+0000`: the text format's (swift-log's shape, to the second).
    static func text() -> String {
        format(now(), fraction: false, zone: "+0000")
    }

    /// The length of ``text()``: every such time has it (years 1000–9999).
    static let textLength = 24

    /// ``text()`` written at the start of `buffer` (at least ``textLength`` bytes), without making a string;
    /// returns the count written.
    static func writeText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        write(now(), fraction: false, zone: "+0000", into: buffer)
    }

    /// `2026-11-27T07:41:39.123Z`: the JSON format's (ISO 8601 with milliseconds).
    static func json() -> String {
        format(now(), fraction: true, zone: "Z")
    }

    /// The two forms for a given instant, for tests.
    static func format(seconds: Int, nanoseconds: Int, fraction: Bool) -> String {
        format(timespec(tv_sec: seconds, tv_nsec: nanoseconds), fraction: fraction, zone: fraction ? "Z" : "+0000")
    }

    private static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    private static func format(_ instant: timespec, fraction: Bool, zone: StaticString) -> String {
        String(unsafeUninitializedCapacity: 32) { write(instant, fraction: fraction, zone: zone, into: $0) }
    }

    /// The time's text at the start of `buffer` (32 bytes hold either form); returns the count written.
    private static func write(_ instant: timespec, fraction: Bool, zone: StaticString, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let parts = UTCTime(secondsSince1970: Int(instant.tv_sec))
        var at = 0
        func digits(_ value: Int, _ count: Int) {
            var value = value
            for index in stride(from: at + count - 1, through: at, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            at += count
        }
        func character(_ ascii: Unicode.Scalar) {
            buffer[at] = UInt8(ascii: ascii)
            at += 1
        }
        digits(parts.year, 4)
        character("-")
        digits(parts.month, 2)
        character("-")
        digits(parts.day, 2)
        character("T")
        digits(parts.hour, 2)
        character(":")
        digits(parts.minute, 2)
        character(":")
        digits(parts.second, 2)
        if fraction {
            character(".")
            digits(Int(instant.tv_nsec) / 1_000_000, 3)
        }
        zone.withUTF8Buffer {
            for byte in $0 {
                buffer[at] = byte
                at += 1
            }
        }
        return at
    }
}

/// A UTC calendar date and time of day, from seconds since 1970 by arithmetic (the proleptic Gregorian
/// calendar; days to a date by Howard Hinnant's `civil_from_days`), as `gmtime_r` gives them without its lock.
struct UTCTime: Equatable {
    var year: Int
    /// 1–12.
    var month: Int
    /// 1–31.
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
}

extension UTCTime {
    /// The date and time of `seconds` since 1970 (in an extension, so that the memberwise initializer stays).
    init(secondsSince1970 seconds: Int) {
        // Floor division, so that an instant before 1970 falls on the day it belongs to.
        var days = seconds / 86_400
        var time = seconds % 86_400
        if time < 0 {
            time += 86_400
            days -= 1
        }
        hour = time / 3_600
        minute = time % 3_600 / 60
        second = time % 60
        // Days counted from 0000-03-01, in 400-year eras of 146,097 days; a year starts in March here, so that
        // the leap day is its last.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
