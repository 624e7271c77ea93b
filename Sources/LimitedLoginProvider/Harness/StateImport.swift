import LimitedLoginCore
import LimitedLoginJOSE
import Logging

/// Loads the parts of a fixtures file that `export` adds to apps and users: app-scoped IDs (before
/// anything makes new ones), grants and signing keys. Idempotent: what exists already stays.
struct StateImport: Sendable {
    let store: ProviderStore
    /// Where a signing key published from the file is announced (one warning each); nil says nothing.
    var logger: Logger? = nil

    func load(_ fixtures: ProviderFixtures) async throws {
        for entry in fixtures.appScopedIDs ?? [] {
            try await requireKnown(appID: entry.appID, userID: entry.userID, what: "app-scoped ID \(entry.asid)")
            try await store.importAppScopedID(appID: entry.appID, userID: entry.userID, asid: entry.asid)
        }
        for grant in fixtures.grants ?? [] {
            try await requireKnown(appID: grant.appID, userID: grant.userID, what: "a grant")
            guard try await store.grant(appID: grant.appID, userID: grant.userID) == nil else { continue }
            try await store.saveGrant(
                GrantRecord(
                    appID: grant.appID, userID: grant.userID, granted: Set(grant.granted.map { Permission(name: $0) }),
                    declined: Set(grant.declined.map { Permission(name: $0) }), installed: grant.installed, updatedAt: ProviderTime.now(),
                    messengerPageID: grant.messengerPageID
                ))
        }
        try await loadAccessTokens(fixtures)
        let existing = Set(try await store.signingKeys().map(\.keyID))
        for key in fixtures.signingKeys ?? [] where !existing.contains(key.kid) {
            do { _ = try RS256PrivateKey(pem: key.privateKeyPEM) } catch {
                throw FixturesError.invalid("signing key \(key.kid) is unreadable: \(error.description)")
            }
            try await store.insertSigningKey(
                SigningKeyRecord(
                    keyID: key.kid, privateKeyPEM: key.privateKeyPEM, createdAt: key.createdAt, signsFrom: key.signsFrom, retiredAt: key.retiredAt
                ))
            // Whoever wrote the file holds this private key and can sign tokens the provider's JWKS vouches for.
            logger?.warning(
                "Imported signing key \(key.kid) from the fixtures file: it is published in the JWKS, and anyone with the file can sign tokens with it.",
                metadata: ["kid": "\(key.kid)"]
            )
        }
    }

    /// The access tokens of an export (by hash), after the apps and users they name.
    func loadAccessTokens(_ fixtures: ProviderFixtures) async throws {
        for token in fixtures.accessTokens ?? [] {
            try await requireKnown(appID: token.appID, userID: token.userID, what: "an access token")
            try await store.importAccessToken(token)
        }
    }

    /// The queued scenarios of an export, in order, onto `queue`.
    func loadScenarios(_ fixtures: ProviderFixtures, into queue: ScenarioQueue) async throws {
        for entry in fixtures.scenarios ?? [] {
            guard try await store.app(id: entry.appID) != nil else { throw FixturesError.invalid("a scenario names an unknown app \(entry.appID)") }
            if let userID = entry.userID, try await store.user(id: userID) == nil {
                throw FixturesError.invalid("a scenario names an unknown user \(userID)")
            }
            guard case .object(let body) = entry.outcome.value else { throw FixturesError.invalid("a scenario's outcome must be an object") }
            switch Scenario.Outcome.parse(body) {
            case .failure(let error): throw FixturesError.invalid("a scenario for app \(entry.appID): \(error.message)")
            case .success(let outcome):
                guard queue.add(appID: entry.appID, userID: entry.userID, outcome: outcome) != nil else {
                    throw FixturesError.invalid("more than \(ScenarioQueue.capacity) scenarios")
                }
            }
        }
    }

    private func requireKnown(appID: String, userID: String, what: String) async throws {
        guard try await store.app(id: appID) != nil else { throw FixturesError.invalid("\(what) names an unknown app \(appID)") }
        guard try await store.user(id: userID) != nil else { throw FixturesError.invalid("\(what) names an unknown user \(userID)") }
    }
}
