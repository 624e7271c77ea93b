/// How many wrong admin tokens one client address may give (to the admin API or the console's sign-in)
/// before further attempts are answered 429 for the rest of the window.
public struct AdminTokenAttemptLimits: Sendable, Equatable {
    /// Wrong admin tokens allowed from one address in a window; the next attempt is refused.
    public var perAddress: Int
    /// The window, in seconds, from the first wrong token.
    public var window: Int64

    public init(perAddress: Int = 20, window: Int64 = 60) {
        self.perAddress = perAddress
        self.window = window
    }
}

/// Counts wrong admin tokens per client address on this node, in a fixed window on the system clock (not
/// the provider's, which tests move), so that guessing the token is limited as password guessing is.
///
/// Kept in memory: a guess limit for a secret of 16 characters or more needs no persistence; a restart
/// forgets the counts.
actor AdminTokenAttempts {
    private struct Window {
        var failures: Int
        var start: Int64
    }

    let limits: AdminTokenAttemptLimits
    private var windows: [String: Window] = [:]

    init(limits: AdminTokenAttemptLimits) {
        self.limits = limits
    }

    /// Seconds to wait before `address` may try again, or nil when it may try now.
    func refusal(address: String?, now: Int64) -> Int64? {
        let key = address ?? "unknown"
        guard let window = windows[key] else { return nil }
        guard window.start + limits.window > now else {
            windows[key] = nil
            return nil
        }
        return window.failures >= limits.perAddress ? max(1, window.start + limits.window - now) : nil
    }

    /// Counts a wrong admin token from `address`.
    func failed(address: String?, now: Int64) {
        let key = address ?? "unknown"
        if let window = windows[key], window.start + limits.window > now {
            windows[key]?.failures = window.failures + 1
        } else {
            if windows.count > 10_000 { windows = windows.filter { $0.value.start + limits.window > now } }
            windows[key] = Window(failures: 1, start: now)
        }
    }
}
