import Foundation

/// Limits password guessing (``SignInLimits``): counts **failed** password sign-ins per account and per
/// client address in the store, after the password is checked, and refuses a sign-in while either count has
/// reached its limit.
///
/// Only failures count: correct sign-ins, however many arrive at once from one address, are never refused,
/// and a process that dies in the middle of a check leaves nothing counted. So that a burst of guesses sent
/// at once cannot all be checked before the first failure is counted, the checks in flight on this node hold
/// a place under the same limits (``SignInCheckGate``): a sign-in that would go over waits for a check to end.
/// On a shared database each check also holds its place in the store
/// (``ProviderStore/holdSignInCheck(id:places:window:)``), so that the limits are the cluster's: a burst
/// spread over N nodes is checked no more than the limit, not N times it.
struct SignInThrottle: Sendable {
    let store: ProviderStore
    let limits: SignInLimits
    let gate: SignInCheckGate
    /// How long, in seconds, a check's places in a shared store last unless renewed; renewed every third of
    /// it while the check runs. A node that dies mid-check holds sign-ins back for no longer than this (seen
    /// with a fixed hold of 300 s: a node killed mid-check behind a balancer left every later burst from the
    /// balancer's address waiting until the gateway timed out).
    var placeLease = Self.defaultPlaceLease
    static let defaultPlaceLease: Int64 = 20

    /// What became of a sign-in.
    enum Outcome: Equatable, Sendable {
        /// The password matched; the account's failures were forgotten.
        case succeeded
        /// The password did not match; the failure was counted.
        case failed
        /// Not checked: too many failures for this account or from this address; try again after this many seconds.
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

    /// Runs `check` (the password comparison: true when it matched) for a sign-in as `email` from
    /// `address` when the limits allow it, and counts the result.
    func signIn(email: String, address: String?, check: @Sendable () async throws -> Bool) async throws -> Outcome {
        let account = Self.accountKey(email: email)
        let client = Self.addressKey(address)
        let checkID = RandomIdentifiers.secret(byteCount: 16)
        var pause = 20  // milliseconds before looking again when other nodes' checks fill a limit
        while true {
            let generation = await gate.failureGeneration
            let now = ProviderTime.now()
            try await store.purgeSignInAttempts(before: now - limits.window)
            let accountFailures = try await store.signInFailures(key: account, window: limits.window, now: now)
            let clientFailures = try await store.signInFailures(key: client, window: limits.window, now: now)
            var retryAfter: Int64?
            for (count, limit) in [(accountFailures, limits.perAccount), (clientFailures, limits.perAddress)] where count.attempts >= Int64(limit) {
                retryAfter = max(retryAfter ?? 1, count.windowStart + limits.window - now)
            }
            if let retryAfter { return .refused(retryAfter: max(1, retryAfter)) }
            let places = [
                SignInCheckGate.Place(key: account, failures: accountFailures.attempts, limit: limits.perAccount),
                SignInCheckGate.Place(key: client, failures: clientFailures.attempts, limit: limits.perAddress),
            ]
            guard await gate.enter(places, readAtGeneration: generation) else { continue }
            if !store.location.isShared { break }
            do {
                if try await store.holdSignInCheck(id: checkID, places: places, window: limits.window, lease: placeLease) { break }
            } catch {
                await gate.leave([account, client], failed: false)
                throw error
            }
            // Checks on other nodes fill a limit: give this node's place back and look again shortly (they take
            // milliseconds; one whose node died lapses within placeLease seconds). The pause doubles, up to
            // half a second, and varies, so that a burst waiting on several nodes does not keep the store busy.
            await gate.leave([account, client], failed: false)
            try await Task.sleep(for: .milliseconds(Int.random(in: pause / 2...pause)))
            pause = min(pause * 2, 500)
        }
        // While the check runs, its places in a shared store are renewed; a node that dies stops renewing them.
        let renewal = store.location.isShared ? renewPlaces(of: checkID) : nil
        defer { renewal?.cancel() }
        let matched: Bool
        do {
            matched = try await check()
            if matched {
                try await store.clearSignInAttempts(key: account)
            } else {
                let now = ProviderTime.now()
                _ = try await store.countSignInFailure(key: account, window: limits.window, now: now)
                _ = try await store.countSignInFailure(key: client, window: limits.window, now: now)
            }
        } catch {
            await release(checkID, keys: [account, client], failed: true)
            throw error
        }
        await release(checkID, keys: [account, client], failed: !matched)
        return matched ? .succeeded : .failed
    }

    /// Renews check `checkID`'s places in the store every third of the lease, until cancelled.
    private func renewPlaces(of checkID: String) -> Task<Void, Never> {
        Task { [store, placeLease] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(max(1, placeLease / 3)))
                if !Task.isCancelled { try? await store.renewSignInCheck(id: checkID, lease: placeLease) }
            }
        }
    }

    /// Gives back a check's places, in the store after its failure was counted there (so that the failures
    /// plus the places never count less than the truth), then on this node.
    private func release(_ checkID: String, keys: [String], failed: Bool) async {
        if store.location.isShared {
            // A place that cannot be given back (the store is unreachable) lapses by itself.
            try? await store.releaseSignInCheck(id: checkID)
        }
        await gate.leave(keys, failed: failed)
    }
}
