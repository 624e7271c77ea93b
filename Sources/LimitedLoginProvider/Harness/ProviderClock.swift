import Synchronization

/// Why the clock refused to move.
public enum ProviderClockError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Setting the clock before a token it already issued would make time run backwards for that token.
    case beforeIssuedTokens(requested: Int64, latestIssuedAt: Int64)
    /// The requested time is outside 1970 ... 9999.
    case outOfRange(Int64)

    public var description: String {
        switch self {
        case .beforeIssuedTokens(let requested, let latest):
            return "The clock cannot go back to \(requested): a token was already issued at \(latest). "
                + "Set a time at or after \(latest), reset the clock, or pass \"force\": true (limited-login clock: --force)."
        case .outOfRange(let value):
            return "\(value) is not a time the clock can show; give seconds since 1970, before the year 10000."
        }
    }
}

/// The provider's time, which tests control (docs/BEHAVIOUR.md, section 9): it runs with the system clock, shifted by an
/// offset that `advance` and `set` change and `reset` clears. Every expiry the provider decides follows it:
/// token `iat`/`exp`, access-token and data-access expiry, sessions, codes and the key rotation schedule.
///
/// One clock per provider process; nodes sharing a PostgreSQL database keep theirs the same through the
/// store (a move through one node reaches the others within about a second).
public final class ProviderClock: Sendable {
    private struct State {
        var offset: Int64 = 0
        var latestIssuedAt: Int64 = .min
    }

    /// The latest time the clock may show: 9999-12-31.
    static let maximum: Int64 = 253_402_300_799

    private let state = Mutex(State())
    private let system: @Sendable () -> Int64

    public convenience init() {
        self.init(system: ProviderTime.systemNow)
    }

    /// A clock over another source of system time (tests).
    init(system: @escaping @Sendable () -> Int64) {
        self.system = system
    }

    /// The provider's time now.
    public func now() -> Int64 { system() + state.withLock { $0.offset } }

    /// The system's time or the provider's, whichever is earlier (``ProviderTime/settledNow()``).
    func settledNow() -> Int64 {
        let system = self.system()
        return min(system, system + state.withLock { $0.offset })
    }

    /// How far the provider's time is ahead of the system's (negative: behind).
    public var offset: Int64 { state.withLock { $0.offset } }

    /// Moves the clock forward (or back, with a negative amount) by `seconds`.
    @discardableResult
    public func advance(by seconds: Int64, force: Bool = false) throws(ProviderClockError) -> Int64 {
        try set(to: now() + seconds, force: force)
    }

    /// Sets the clock to `time`. A move forward is always allowed; a move back to before the newest issued
    /// token is refused unless `force`.
    @discardableResult
    public func set(to time: Int64, force: Bool = false) throws(ProviderClockError) -> Int64 {
        guard (0...Self.maximum).contains(time) else { throw .outOfRange(time) }
        let system = self.system()
        return try state.withLock { (state: inout State) throws(ProviderClockError) -> Int64 in
            let goesBack = time < system + state.offset
            if !force, goesBack, time < state.latestIssuedAt {
                throw .beforeIssuedTokens(requested: time, latestIssuedAt: state.latestIssuedAt)
            }
            state.offset = time - system
            return time
        }
    }

    /// Takes the offset another node set (the cluster clock): that node applied the rules already.
    func adopt(offset: Int64) {
        state.withLock { $0.offset = offset }
    }

    /// Back to the system's time (always allowed: the system clock is the truth tokens are checked against).
    public func reset() {
        state.withLock { $0.offset = 0 }
    }

    /// Notes that a token was issued at `time`, so that the clock is not set back before it by mistake.
    func noteIssued(at time: Int64) {
        state.withLock { $0.latestIssuedAt = max($0.latestIssuedAt, time) }
    }

    /// The newest `iat` issued through this clock, if any.
    public var latestIssuedAt: Int64? {
        let value = state.withLock { $0.latestIssuedAt }
        return value == .min ? nil : value
    }
}
