import SQLKit

/// A counter of failed sign-ins in a fixed window: how many, and when the window began.
struct SignInAttemptCount: Sendable, Equatable {
    var attempts: Int64
    var windowStart: Int64
}

extension ProviderStore {
    /// Counts one more failed sign-in under `key` and returns the count, in one statement, so that
    /// concurrent failures (on this node or on any node of a shared database) each get a distinct count.
    ///
    /// A window older than `window` seconds, or one that begins more than ``signInClockSlack`` seconds after
    /// `now` (the clock was moved back past it), starts afresh at `now` with this failure. Within the slack it
    /// goes on: another check (on this node or another) read the clock after this one and counted first, and
    /// starting afresh would forget its failures (seen under load: one more check than the limit let in).
    func countSignInFailure(key: String, window: Int64, now: Int64) async throws(StoreError) -> SignInAttemptCount {
        let expired = now - window
        let ahead = now + Self.signInClockSlack
        let row = try await run("sign-in attempts") {
            try await db.raw(
                """
                INSERT INTO ll_sign_in_attempts (attempt_key, window_start, attempts) VALUES (\(bind: key), \(bind: now), 1)
                ON CONFLICT (attempt_key) DO UPDATE SET
                attempts = CASE WHEN ll_sign_in_attempts.window_start <= \(bind: expired)
                    OR ll_sign_in_attempts.window_start > \(bind: ahead) THEN 1
                    ELSE ll_sign_in_attempts.attempts + 1 END,
                window_start = CASE WHEN ll_sign_in_attempts.window_start <= \(bind: expired)
                    OR ll_sign_in_attempts.window_start > \(bind: ahead) THEN \(bind: now)
                    ELSE ll_sign_in_attempts.window_start END
                RETURNING attempts, window_start
                """
            ).first()
        }
        guard let row,
            let attempts = try? row.decode(column: "attempts", as: Int64.self),
            let windowStart = try? row.decode(column: "window_start", as: Int64.self)
        else { throw .corrupt("the sign-in attempt counter \(key) returned no count") }
        return SignInAttemptCount(attempts: attempts, windowStart: windowStart)
    }

    /// The failures counted under `key` in a window that has begun and not ended at `now` (none: 0, from
    /// `now`). A window that begins more than ``signInClockSlack`` seconds after `now` (counted before the clock
    /// was moved back) counts nothing; one within it was begun by a check that read the clock later.
    func signInFailures(key: String, window: Int64, now: Int64) async throws(StoreError) -> SignInAttemptCount {
        let row = try await run("sign-in attempts") {
            try await db.select().columns("attempts", "window_start").from("ll_sign_in_attempts")
                .where("attempt_key", .equal, key).where("window_start", .greaterThan, now - window)
                .where("window_start", .lessThanOrEqual, now + Self.signInClockSlack).first()
        }
        guard let row else { return SignInAttemptCount(attempts: 0, windowStart: now) }
        guard let attempts = try? row.decode(column: "attempts", as: Int64.self),
            let windowStart = try? row.decode(column: "window_start", as: Int64.self)
        else { throw .corrupt("the sign-in attempt counter \(key) cannot be read") }
        return SignInAttemptCount(attempts: attempts, windowStart: windowStart)
    }

    /// Forgets every failure counted under `key`.
    func clearSignInAttempts(key: String) async throws(StoreError) {
        try await run("sign-in attempts") {
            try await db.delete(from: "ll_sign_in_attempts").where("attempt_key", .equal, key).run()
        }
    }

    /// Removes counters whose window began before `before`: they count nothing any more.
    func purgeSignInAttempts(before: Int64) async throws(StoreError) {
        try await run("sign-in attempts") {
            try await db.delete(from: "ll_sign_in_attempts").where("window_start", .lessThan, before).run()
        }
    }
}
