import Foundation

/// Limits password guessing (``SignInLimits``): counts each password sign-in per account and per client
/// address in the store, before the password is checked, and refuses once either count is over its limit.
///
/// Counting before checking (and taking the attempt back when it succeeds) keeps the limit exact when an
/// attacker sends many guesses at once: each gets its own count from the store, so no burst slips
/// through between a check and an increment.
struct SignInThrottle: Sendable {
    let store: ProviderStore
    let limits: SignInLimits

    enum Verdict: Equatable, Sendable {
        case allowed
        /// Refused; try again after this many seconds.
        case refused(retryAfter: Int64)
    }

    /// The account's counter key: the email as typed, normalised, known or not (so that a refusal shows
    /// nothing about who exists), hashed (what people type in the email field stays out of the store).
    static func accountKey(email: String) -> String {
        "account:" + RandomIdentifiers.storageHash(email.trimmingCharacters(in: .whitespaces).lowercased())
    }

    static func addressKey(_ address: String?) -> String {
        "address:" + RandomIdentifiers.storageHash(address ?? "unknown")
    }

    /// Counts an attempt to sign in as `email` from `address`, and says whether it may go on.
    func attempt(email: String, address: String?) async throws(StoreError) -> Verdict {
        let now = ProviderTime.now()
        try await store.purgeSignInAttempts(before: now - limits.window)
        let account = try await store.countSignInAttempt(key: Self.accountKey(email: email), window: limits.window, now: now)
        let client = try await store.countSignInAttempt(key: Self.addressKey(address), window: limits.window, now: now)
        var retryAfter: Int64 = 0
        if account.attempts > Int64(limits.perAccount) { retryAfter = max(retryAfter, account.windowStart + limits.window - now) }
        if client.attempts > Int64(limits.perAddress) { retryAfter = max(retryAfter, client.windowStart + limits.window - now) }
        if account.attempts > Int64(limits.perAccount) || client.attempts > Int64(limits.perAddress) {
            return .refused(retryAfter: max(1, retryAfter))
        }
        return .allowed
    }

    /// The attempt succeeded: the account's count starts again, and the address's no longer holds it.
    func succeeded(email: String, address: String?) async throws(StoreError) {
        try await store.clearSignInAttempts(key: Self.accountKey(email: email))
        try await store.uncountSignInAttempt(key: Self.addressKey(address))
    }
}
