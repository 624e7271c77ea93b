import LimitedLoginCore
import LimitedLoginJOSE

/// Loads the parts of a fixtures file that `export` adds to apps and users: app-scoped IDs (before
/// anything makes new ones), grants and signing keys. Idempotent: what exists already stays.
struct StateImport: Sendable {
    let store: ProviderStore

    func load(_ fixtures: ProviderFixtures) async throws {
        for entry in fixtures.appScopedIDs ?? [] {
            try await requireKnown(appID: entry.appID, userID: entry.userID, what: "app-scoped ID \(entry.asid)")
            try await store.importAppScopedID(appID: entry.appID, userID: entry.userID, asid: entry.asid)
        }
        for grant in fixtures.grants ?? [] {
            try await requireKnown(appID: grant.appID, userID: grant.userID, what: "a grant")
            guard try await store.grant(appID: grant.appID, userID: grant.userID) == nil else { continue }
            try await store.saveGrant(GrantRecord(
                appID: grant.appID, userID: grant.userID, granted: Set(grant.granted.map { Permission(name: $0) }),
                declined: Set(grant.declined.map { Permission(name: $0) }), installed: grant.installed, updatedAt: ProviderTime.now(),
                messengerPageID: grant.messengerPageID
            ))
        }
        let existing = Set(try await store.signingKeys().map(\.keyID))
        for key in fixtures.signingKeys ?? [] where !existing.contains(key.kid) {
            do { _ = try RS256PrivateKey(pem: key.privateKeyPEM) } catch {
                throw FixturesError.invalid("signing key \(key.kid) is unreadable: \(error.description)")
            }
            try await store.insertSigningKey(SigningKeyRecord(
                keyID: key.kid, privateKeyPEM: key.privateKeyPEM, createdAt: key.createdAt, signsFrom: key.signsFrom, retiredAt: key.retiredAt
            ))
        }
    }

    private func requireKnown(appID: String, userID: String, what: String) async throws {
        guard try await store.app(id: appID) != nil else { throw FixturesError.invalid("\(what) names an unknown app \(appID)") }
        guard try await store.user(id: userID) != nil else { throw FixturesError.invalid("\(what) names an unknown user \(userID)") }
    }
}
