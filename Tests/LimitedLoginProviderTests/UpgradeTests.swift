import Foundation
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Stores and exports made by earlier releases (`UpgradeFixtures/`, with how each was made) open in this build
/// with everything in them, and keep working.
@Suite("Upgrades: stores and exports of earlier releases")
struct UpgradeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("UpgradeFixtures/0.2.0")
    static let demoApp = "1000000000000001"
    static let apps = [demoApp, "2000000000000002", "3000000000000003"]

    /// A copy of the release's store, so that the checked-in file is never migrated.
    static func copiedStore() throws -> String {
        let path = temporaryDatabasePath()
        try FileManager.default.copyItem(at: folder.appendingPathComponent("store.sqlite"), to: URL(fileURLWithPath: path))
        return path
    }

    /// Alice's classic login on the release's store (`file`: one per store, as each has its own keys and tokens).
    static func aliceLogin(_ file: String = "alice-login.json") throws -> (accessToken: String, idToken: String) {
        let value = try StrictJSONParser().parse(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
        return (
            try #require(value.objectValue?["access_token"]?.stringValue), try #require(value.objectValue?["id_token"]?.stringValue)
        )
    }

    @Test("a 0.2.0 store opens with every app, user, role, grant, session, token and key, each user a test user of each app")
    func store020() async throws {
        try await Self.checkUpgraded(.sqliteFile(path: try Self.copiedStore()))
    }

    @Test(
        "a 0.2.0 PostgreSQL store (its pg_dump) opens with everything in it, as the SQLite one does",
        .enabled(if: PostgresTestDatabase.serverURL != nil, "needs the test PostgreSQL server (scripts/test starts one)"))
    func postgresStore020() async throws {
        let url = try await PostgresTestDatabase.create()
        let dump = try String(contentsOf: Self.folder.appendingPathComponent("postgres.sql"), encoding: .utf8)
        try await PostgresTestDatabase.run(script: dump, in: url)
        try await Self.checkUpgraded(.postgres(url: url), aliceLogin: "postgres-alice-login.json")
    }

    /// Opens the store a 0.2.0 binary made (as `UpgradeFixtures/README.md` says) with this build, and checks
    /// that everything in it is there and works.
    static func checkUpgraded(_ location: StoreLocation, aliceLogin loginFile: String = "alice-login.json") async throws {
        var configuration = TestFixtures.configuration(store: location)
        configuration.fixtures = nil
        try await withProvider(configuration) { client, provider in
            let store = provider.store
            #expect(try await store.apps().map(\.id).sorted() == Self.apps)
            let users = try await store.users()
            #expect(Set(users.map(\.email)) == ["alice@example.com", "bob@example.com", "carol@example.com", "dana@example.com"])
            // Before 0.3 every user was every app's test user: upgrading keeps that, so nothing that worked stops.
            let memberships = try await store.appsOfTestUsers()
            for user in users { #expect(memberships[user.id] == Self.apps, "\(user.email)") }
            let dana = try #require(users.first { $0.email == "dana@example.com" })
            #expect(try await store.role(appID: "3000000000000003", userID: dana.id) == .admin)
            #expect(try await store.app(id: "3000000000000003")?.mode == .development)

            let alice = try #require(users.first { $0.email == "alice@example.com" })
            let login = try Self.aliceLogin(loginFile)
            let token = try #require(try await store.accessToken(login.accessToken))
            #expect(token.userID == alice.id && token.appID == Self.demoApp)
            #expect(try await store.grant(appID: Self.demoApp, userID: alice.id)?.installed == true)
            // The ID token's key is still in the key set, so tokens signed before the upgrade still verify.
            let header = try #require(try CompactJWS(parsing: login.idToken).header["kid"]?.stringValue)
            #expect(try await store.signingKeys().map(\.keyID).contains(header))
            let published = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get)
            #expect(String(buffer: published.body).contains(header))

            // The demo app's token manages its test users, all four of them.
            let secret = try #require(try await store.app(id: Self.demoApp)?.secret)
            let listed = try await graph(client, "/v21.0/\(Self.demoApp)/accounts/test-users?access_token=\(Self.demoApp)%7C\(secret)")
            #expect(listed.object["data"]?.arrayValue?.count == 4, "\(listed.object)")
            // A login on the upgraded store: Dana, with her password, on the development-mode app she administers.
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath(appID: "3000000000000003", redirectURI: "http://127.0.0.1:9/cb", scope: "openid"))
            #expect(page.status == .ok)
            let signedIn = try await browser.signIn(email: "dana@example.com", password: "dana-pass", on: page)
            #expect(signedIn.status == .seeOther, "\(signedIn.body.prefix(300))")
        }
    }

    @Test("a 0.2.0 export loads with every user, each a test user of every app it names, and the same IDs and keys")
    func export020() async throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("export.json"))
        let fixtures = try JSONDecoder().decode(ProviderFixtures.self, from: data)
        #expect(fixtures.users.allSatisfy { $0.apps == nil }, "0.2.0 exports name no apps")
        var configuration = TestFixtures.configuration()
        configuration.fixtures = fixtures
        try await withProvider(configuration) { _, provider in
            let store = provider.store
            #expect(try await store.apps().map(\.id).sorted() == Self.apps)
            #expect(Set(try await store.users().map(\.id)) == Set(fixtures.users.compactMap(\.id)))
            let memberships = try await store.appsOfTestUsers()
            for user in fixtures.users { #expect(memberships[user.id ?? ""] == Self.apps, "\(user.email)") }
            let login = try Self.aliceLogin()
            let kid = try #require(try CompactJWS(parsing: login.idToken).header["kid"]?.stringValue)
            #expect(try await store.signingKeys().map(\.keyID).contains(kid))
        }
    }
}
