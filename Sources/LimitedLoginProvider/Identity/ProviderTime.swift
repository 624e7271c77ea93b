import Foundation

/// Seconds since 1970, the unit of every time the provider stores or puts in a token.
///
/// The time is the running provider's ``ProviderClock`` (which tests can move through the admin API), found
/// through a task-local value that the provider sets around each request and its start-up. Code that runs
/// outside a provider (a store opened alone, a tool) reads the system clock.
enum ProviderTime {
    @TaskLocal static var clock: ProviderClock?

    static func now() -> Int64 { clock?.now() ?? systemNow() }

    static func systemNow() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// The earliest time the provider's clock can be brought back to without `force`: the system's time (a
    /// reset) or the provider's, whichever is earlier. What may be needed again at a time the clock can go
    /// back to (a signing key) is dropped by this time, never by a clock that was moved ahead.
    static func settledNow() -> Int64 { clock?.settledNow() ?? systemNow() }
}
