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

/// Counts wrong admin tokens per client address, in a fixed window on the system clock (not the provider's,
/// which tests move), so that guessing the token is limited as password guessing is.
///
/// On a shared database the counts are the cluster's: kept in the store's sign-in counters (under keys of
/// their own), so that N nodes allow the limit, not N times it. Otherwise, and whenever the store does not
/// answer, kept in memory: a guess limit for a secret of 16 characters or more needs no persistence, and a
/// restart forgets the counts. (The store's counters are purged on the provider's clock: moving that clock
/// forward can forget a count early, never keep one longer.)
actor AdminTokenAttempts {
    private struct Window {
        var failures: Int
        var start: Int64
    }

    let limits: AdminTokenAttemptLimits
    /// The shared store that holds the counts, or nil for this node's memory.
    let store: ProviderStore?
    private var windows: [String: Window] = [:]

    init(limits: AdminTokenAttemptLimits, store: ProviderStore? = nil) {
        self.limits = limits
        self.store = store
    }

    /// The store's counter key for an address (hashed, as the sign-in counters' are).
    static func storeKey(address: String?) -> String {
        "admin:" + RandomIdentifiers.storageHash(address ?? "unknown")
    }

    /// Seconds to wait before `address` may try again, or nil when it may try now.
    func refusal(address: String?, now: Int64) async -> Int64? {
        if let store, let count = try? await store.signInFailures(key: Self.storeKey(address: address), window: limits.window, now: now) {
            return count.attempts >= Int64(limits.perAddress) ? max(1, count.windowStart + limits.window - now) : nil
        }
        let key = address ?? "unknown"
        guard let window = windows[key] else { return nil }
        guard window.start + limits.window > now else {
            windows[key] = nil
            return nil
        }
        return window.failures >= limits.perAddress ? max(1, window.start + limits.window - now) : nil
    }

    /// Counts a wrong admin token from `address`.
    func failed(address: String?, now: Int64) async {
        if let store, (try? await store.countSignInFailure(key: Self.storeKey(address: address), window: limits.window, now: now)) != nil {
            return
        }
        let key = address ?? "unknown"
        if let window = windows[key], window.start + limits.window > now {
            windows[key]?.failures = window.failures + 1
        } else {
            if windows.count > 10_000 { windows = windows.filter { $0.value.start + limits.window > now } }
            windows[key] = Window(failures: 1, start: now)
        }
    }
}
