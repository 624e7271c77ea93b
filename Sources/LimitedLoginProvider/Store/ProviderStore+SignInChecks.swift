import SQLKit

/// The password checks in flight across the nodes of a shared database (``SignInThrottle``): each holds a
/// place under its limits in the store while it runs, so that a burst of guesses spread over several nodes is
/// held to the limit, not to the limit on each node. A place is a lease: the node renews it while its check
/// runs (``renewSignInCheck(id:lease:)``), so a node that dies mid-check leaves places that lapse within one
/// lease; they are places, never failures.
extension ProviderStore {
    /// How far after a node's reading of the clock another node's window may begin and still count.
    static let signInClockSlack: Int64 = 5

    /// Takes a place for check `id` under every limit when, for each, the failures in the window plus the
    /// places held stay under it, and returns true; otherwise takes none and returns false. On PostgreSQL in
    /// one transaction holding an advisory lock per key, so that nodes take turns.
    /// The places last `lease` seconds unless renewed. The provider's time is read once the locks are held (a
    /// wait for them can be long under load).
    func holdSignInCheck(id: String, places: [SignInCheckGate.Place], window: Int64, lease: Int64) async throws(StoreError) -> Bool {
        try await run("sign-in checks") {
            try await db.withSession { session in
                try await session.raw("BEGIN").run()
                do {
                    let held = try await self.takePlaces(id: id, places: places, window: window, lease: lease, on: session)
                    try await session.raw(held ? "COMMIT" : "ROLLBACK").run()
                    return held
                } catch {
                    try? await session.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
    }

    /// Reads the time with ``now()`` (the provider's clock, given to the store): `withSession` runs this in
    /// a task of its own, where the request's ``ProviderTime`` clock is not set and a moved clock would be missed.
    private func takePlaces(
        id: String, places: [SignInCheckGate.Place], window: Int64, lease: Int64, on db: any SQLDatabase
    ) async throws -> Bool {
        for key in places.map(\.key).sorted() {
            try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: key)))").run()
        }
        let now = self.now()
        try await db.delete(from: "ll_sign_in_checks").where("expires_at", .lessThanOrEqual, now).run()
        for place in places {
            // A window that began up to a few seconds after `now` counts: another node may have counted the
            // first failure after this node read the clock (seen under load: with `<= now`, every failure was
            // left out and twice the limit was checked). One further ahead (the clock was moved back) does
            // not, as in ``signInFailures(key:window:now:)``.
            let failures =
                try await db.select().column("attempts").from("ll_sign_in_attempts")
                .where("attempt_key", .equal, place.key).where("window_start", .greaterThan, now - window)
                .where("window_start", .lessThanOrEqual, now + Self.signInClockSlack).first()
                .map { try $0.decode(column: "attempts", as: Int64.self) } ?? 0
            let held =
                try await db.raw("SELECT COUNT(*) AS held FROM ll_sign_in_checks WHERE attempt_key = \(bind: place.key)")
                .first().map { try $0.decode(column: "held", as: Int64.self) } ?? 0
            if failures + held >= Int64(place.limit) { return false }
        }
        for place in places {
            try await db.insert(into: "ll_sign_in_checks").columns("check_id", "attempt_key", "expires_at")
                .values(SQLBind(id), SQLBind(place.key), SQLBind(now + lease)).run()
        }
        return true
    }

    /// Extends the places check `id` holds to `lease` seconds from now (none: nothing happens).
    func renewSignInCheck(id: String, lease: Int64) async throws(StoreError) {
        try await run("sign-in checks") {
            try await db.update("ll_sign_in_checks").set("expires_at", to: now() + lease)
                .where("check_id", .equal, id).run()
        }
    }

    /// Gives back the places check `id` holds.
    func releaseSignInCheck(id: String) async throws(StoreError) {
        try await run("sign-in checks") {
            try await db.delete(from: "ll_sign_in_checks").where("check_id", .equal, id).run()
        }
    }
}
