#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time of a log line, in UTC, from the system clock and arithmetic alone: no time-zone file read,
/// no formatter, no lock. (swift-log's stream handler called `localtime`, which reads /etc/localtime
/// for every line.) A log's times are UTC, so that lines from several nodes, or from before and after a
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
        var seconds = instant.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
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
        digits(Int(parts.tm_year) + 1900, 4)
        character("-")
        digits(Int(parts.tm_mon) + 1, 2)
        character("-")
        digits(Int(parts.tm_mday), 2)
        character("T")
        digits(Int(parts.tm_hour), 2)
        character(":")
        digits(Int(parts.tm_min), 2)
        character(":")
        digits(Int(parts.tm_sec), 2)
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
