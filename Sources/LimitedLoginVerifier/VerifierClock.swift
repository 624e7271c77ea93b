import Foundation
import Synchronization

/// Where the verifier and the key-set cache read the time; replace it to test expiry without waiting.
public protocol VerifierClock: Sendable {
    var now: Date { get }
}

/// The system's wall clock.
public struct SystemClock: VerifierClock {
    public init() {}
    public var now: Date { Date() }
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
