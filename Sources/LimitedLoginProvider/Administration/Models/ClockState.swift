/// A move of the provider's clock.
enum ClockMove: Sendable, Equatable {
    case advance(seconds: Int64)
    case set(to: Int64)
    /// Back to the system's time.
    case reset
}

/// The provider's clock as the admin API shows it, in seconds since 1970.
struct ClockState: Sendable, Equatable {
    /// The provider's time.
    var now: Int64
    /// How far the provider's time is from the system's.
    var offset: Int64
    var systemNow: Int64
    /// The latest `iat` the provider issued, which the clock goes back before only when forced.
    var latestIssuedAt: Int64?
}
