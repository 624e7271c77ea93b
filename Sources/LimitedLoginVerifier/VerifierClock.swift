import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the verifier and the key-set cache read the time; replace it to test expiry without waiting.
public protocol VerifierClock: Sendable {
    var now: Date { get }
}

/// The system's wall clock.
///
/// On Linux it is read from the kernel's coarse real-time clock, which moves in steps of a few
/// milliseconds and costs a few nanoseconds to read instead of about twenty: token times are whole
/// seconds, leeways are tens of seconds, and the verifier reads the time for every token.
public struct SystemClock: VerifierClock {
    public init() {}

    public var now: Date {
        #if os(Linux)
        var time = timespec()
        if clock_gettime(CLOCK_REALTIME_COARSE, &time) == 0 {
            return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        }
        #endif
        return Date()
    }
}

/// A clock that moves only when told to, for tests.
public final class ManualClock: VerifierClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date()) {
        self.current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }

    /// Sets the clock.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
