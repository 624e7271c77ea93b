import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #30 item 6: an export holds everything a test set up, and an import brings it back: classic access
/// tokens (by hash: the token itself works again, the export never holds it), the clock's offset and the
/// queued scenarios, beside the apps, users, grants, app-scoped IDs and keys it held before.
@Suite("Harness: export and import are complete")
struct HarnessExportTests {
    @Test("access tokens, the clock offset and queued scenarios survive export then import")
    func roundTrip() async throws {
        let exported: Data = try await withProvider(harnessConfiguration()) { client, provider in
            let classic = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","tracking":"enabled"}"#
            )
            let accessToken = try #require(classic.object["access_token"]?.stringValue)
            #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"advance":86400}"#).status == .ok)
            _ = try await admin(client, "/_admin/scenarios", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","outcome":"cancel"}"#)
            _ = try await admin(
                client, "/_admin/scenarios", method: .post,
                json:
                    #"{"app_id":"\#(TestFixtures.appID)","user":"bob@example.com","outcome":"claims","claims":{"email":"z@example.com","picture":null}}"#
            )
            let export = try await client.execute(
                uri: "/_admin/export?include_keys=true", method: .get, headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)"]
            )
            #expect(export.status == .ok)
            let text = String(buffer: export.body)
            #expect(!text.contains(accessToken), "the export holds the token's hash, never the token")
            #expect(text.contains(RandomIdentifiers.storageHash(accessToken)))
            // The token for the import's check travels beside the export, as a test keeps it.
            return Data((accessToken + "\n" + text).utf8)
        }
        let text = String(decoding: exported, as: UTF8.self)
        let accessToken = String(text.prefix { $0 != "\n" })
        let fixtures = try JSONDecoder().decode(ProviderFixtures.self, from: Data(text.drop { $0 != "\n" }.dropFirst().utf8))
        #expect(fixtures.accessTokens?.count == 1)
        #expect(fixtures.clockOffset.map { (86400...86400 + 5).contains($0) } == true, "\(String(describing: fixtures.clockOffset))")
        #expect(fixtures.scenarios?.count == 2)

        var configuration = harnessConfiguration()
        configuration.fixtures = fixtures
        configuration.seedsDemoData = false
        try await withProvider(configuration) { client, provider in
            #expect((86400...86400 + 5).contains(provider.clock.offset), "the clock is a day ahead again")
            let me = try await client.execute(uri: "/v21.0/me?access_token=\(accessToken)", method: .get)
            #expect(me.status == .ok, "the access token works again: \(String(buffer: me.body))")
            let scenarios = try await admin(client, "/_admin/scenarios")
            let queued = try #require(scenarios.object["scenarios"]?.arrayValue)
            #expect(queued.compactMap { $0.objectValue?["outcome"]?.stringValue } == ["cancel", "claims"])
            #expect(queued.last?.objectValue?["claims"]?.objectValue?["picture"] == .null, "a removed claim stays removed")
            #expect(queued.last?.objectValue?["user_id"]?.stringValue == TestFixtures.bob)
        }
    }

    @Test("an export of a store emptied on purpose starts an empty provider, not one with the demo data")
    func emptiedExportStaysEmpty() async throws {
        let exported: Data = try await withProvider(harnessConfiguration()) { client, _ in
            #expect(try await admin(client, "/_admin/reset", method: .post, json: #"{"empty":true}"#).status == .ok)
            let export = try await client.execute(
                uri: "/_admin/export", method: .get, headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)"])
            #expect(export.status == .ok)
            return Data(String(buffer: export.body).utf8)
        }
        let fixtures = try ProviderFixtures.parse(exported, source: "the export")
        #expect(fixtures.emptied == true && fixtures.apps.isEmpty && fixtures.users.isEmpty)
        var configuration = TestFixtures.configuration()
        configuration.fixtures = fixtures
        let provider = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        let apps = try await provider.store.apps()
        let users = try await provider.store.users()
        await provider.store.close()
        #expect(apps.isEmpty && users.isEmpty, "the demo data came back: \(apps.map(\.name)) \(users.map(\.email))")
        #expect(!provider.seededDemoData)
    }

    @Test("an import refused for a name it does not know writes nothing, not even the apps and users before it")
    func refusedImportChangesNothing() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let document = #"""
                {"apps": [{"id": "9000000000000009", "name": "Half App"}],
                 "users": [{"id": "900009", "first_name": "Half", "last_name": "Made", "email": "half@example.com", "pickable": true}],
                 "grants": [{"app_id": "9000000000000009", "user_id": "424242", "granted": ["public_profile"], "declined": [], "installed": true}]}
                """#
            let refused = try await admin(client, "/_admin/import", method: .post, json: document)
            #expect(refused.status == .badRequest)
            #expect(refused.message == "The document cannot be imported: a grant names an unknown user 424242.", "\(refused.object)")
            #expect(try await provider.store.app(id: "9000000000000009") == nil, "the app before the bad grant was written")
            #expect(try await provider.store.user(id: "900009") == nil, "the user before the bad grant was written")
        }
    }

    @Test("an import refuses a scenario or an access token that names an unknown app or user")
    func refusals() async throws {
        var fixtures = ProviderFixtures()
        fixtures.scenarios = [.init(appID: "404", userID: nil, outcome: CodableJSONValue(.object(["outcome": "cancel"])))]
        var configuration = harnessConfiguration()
        configuration.fixtures = fixtures
        await #expect(throws: FixturesError.invalid("a scenario names an unknown app 404")) {
            _ = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        }
        fixtures = try #require(harnessConfiguration().fixtures)
        fixtures.accessTokens = [.init(tokenHash: "h", appID: TestFixtures.appID, userID: "1", issuedAt: 0, expiresAt: 1, dataAccessExpiresAt: 1)]
        configuration.fixtures = fixtures
        await #expect(throws: FixturesError.invalid("an access token names an unknown user 1")) {
            _ = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        }
    }
}
