import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// The provider's state in the fixtures file's shape (`GET /_admin/export`, `limited-login export`,
/// `serve --export-on-exit`): apps, users (with password hashes, never passwords), friendships, grants,
/// app-scoped IDs, classic access tokens (by hash), the clock's offset and the queued scenarios, and with
/// `includingKeys` the signing keys. `serve --fixtures` loads it back to the same state: the same IDs,
/// `sub`s and grants, access tokens that still work, the same time and the same next dialogs (and, with the
/// keys, tokens signed before still verify).
struct StateExport: Sendable {
    let store: ProviderStore
    let clock: ProviderClock
    let scenarios: ScenarioQueue

    func fixtures(includingKeys: Bool) async throws -> ProviderFixtures {
        // By ID, not by creation time: an import creates everything in the same second, so only an order that
        // does not depend on when rows were made survives an export, an import and a second export.
        var apps: [ProviderFixtures.App] = []
        for record in try await store.apps().sorted(by: { $0.id < $1.id }) {
            var app = ProviderFixtures.App(record: record)
            let roles = try await store.roles(appID: record.id)
            if !roles.isEmpty { app.roles = Dictionary(uniqueKeysWithValues: roles.map { ($0.userID, $0.role.rawValue) }) }
            apps.append(app)
        }
        var users: [ProviderFixtures.User] = []
        let memberships = try await store.appsOfTestUsers()
        for user in try await store.users().sorted(by: { $0.id < $1.id }) {
            var entry = ProviderFixtures.User(record: user, friends: try await store.friendIDs(of: user.id), apps: memberships[user.id] ?? [])
            entry.passwordHash = try await store.passwordHash(userID: user.id)
            users.append(entry)
        }
        let grants = try await store.allGrants().map { grant in
            ProviderFixtures.Grant(
                appID: grant.appID, userID: grant.userID, granted: grant.granted.map(\.name).sorted(),
                declined: grant.declined.map(\.name).sorted(), installed: grant.installed,
                messengerPageID: grant.messengerPageID
            )
        }
        let asids = try await store.allAppScopedIDs().map { ProviderFixtures.AppScopedID(appID: $0.appID, userID: $0.userID, asid: $0.asid) }
        var keys: [ProviderFixtures.SigningKey]?
        if includingKeys {
            keys = try await store.signingKeys().map { key in
                ProviderFixtures.SigningKey(
                    kid: key.keyID, privateKeyPEM: key.privateKeyPEM, createdAt: key.createdAt, signsFrom: key.signsFrom, retiredAt: key.retiredAt
                )
            }
        }
        var fixtures = ProviderFixtures(apps: apps, users: users, grants: grants, appScopedIDs: asids, signingKeys: keys)
        let accessTokens = try await store.allAccessTokens()
        fixtures.accessTokens = accessTokens.isEmpty ? nil : accessTokens
        fixtures.clockOffset = clock.offset == 0 ? nil : clock.offset
        let queued = scenarios.all.map { scenario -> ProviderFixtures.QueuedScenario in
            var outcome = scenario.json.objectValue ?? JSONObject()
            for key in ["id", "app_id", "user_id"] { outcome[key] = nil }
            return ProviderFixtures.QueuedScenario(appID: scenario.appID, userID: scenario.userID, outcome: CodableJSONValue(.object(outcome)))
        }
        fixtures.scenarios = queued.isEmpty ? nil : queued
        let settings = try await store.settingValues([AdminStateController.emptiedSetting])
        if settings[AdminStateController.emptiedSetting] == "1" { fixtures.emptied = true }
        return fixtures
    }

    /// The JSON text: keys sorted, indented, so that two exports of one state are the same bytes.
    func json(includingKeys: Bool) async throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(try await fixtures(includingKeys: includingKeys))
    }
}
