import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #59 item 2: beside the organisation's admin token, named credentials scoped to apps; a scoped one
/// sees and changes only its apps and their test users, and every admin write is recorded.
@Suite("Admin API: credentials scoped to apps, and the admin log")
struct ScopedCredentialTests {
    static let teamApp = "3333333333"
    static let scope = "The credential team-c may touch only app 3333333333 and their test users."

    /// A provider with a third app, made after the fixtures' users (so none of them is its test user), and a
    /// credential for it: the body gets the credential's token.
    func withTeam(
        _ configuration: ProviderConfiguration = harnessConfiguration(),
        _ body: @Sendable (_ client: any TestClientProtocol, _ token: String, _ provider: LimitedLoginProvider) async throws -> Void
    ) async throws {
        try await withProvider(configuration) { client, provider in
            let app = try await admin(client, "/_admin/apps", method: .post, json: #"{"id": "\#(Self.teamApp)", "name": "Team C"}"#)
            #expect(app.status == .created, "\(app.object)")
            let made = try await admin(client, "/_admin/credentials", method: .post, json: #"{"name": "team-c", "apps": ["\#(Self.teamApp)"]}"#)
            #expect(made.status == .created, "\(made.object)")
            let token = try #require(made.object["token"]?.stringValue)
            #expect(token.hasPrefix("llc_") && token.count == 47)
            try await body(client, token, provider)
        }
    }

    @Test("the credential is listed without its token; the organisation's routes refuse it, naming what it may touch, and change nothing")
    func organisationRoutes() async throws {
        try await withTeam { client, token, provider in
            let listed = try await admin(client, "/_admin/credentials")
            let entry = try #require(listed.object["credentials"]?.arrayValue?.first?.objectValue)
            #expect(entry["name"] == "team-c" && entry["apps"] == .array([.string(Self.teamApp)]) && entry["token"] == nil, "\(entry)")
            #expect(entry["revoked_at"] == .null)
            let stored = try #require(try await provider.store.adminCredentials().first)
            #expect(stored.tokenSHA256 == AdminCredentialToken.hash(token), "the store keeps the token's hash only")

            let routes: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/_admin/keys", nil), (.post, "/_admin/keys/rotate", nil), (.post, "/_admin/clock", #"{"advance": 60}"#),
                (.get, "/_admin/export", nil), (.post, "/_admin/reset", nil), (.get, "/_admin/credentials", nil),
                (.post, "/_admin/credentials", #"{"name": "more", "apps": ["\#(Self.teamApp)"]}"#), (.delete, "/_admin/credentials/team-c", nil),
                (.post, "/_admin/apps", #"{"id": "4444444444", "name": "Mine too"}"#), (.delete, "/_admin/apps/\(Self.teamApp)", nil),
                (.get, "/_admin/faults", nil), (.get, "/_admin/logins", nil),
                (.post, "/_admin/friendships", #"{"user_id": "\#(TestFixtures.alice)", "friend_id": "\#(TestFixtures.bob)"}"#),
            ]
            for (method, path, json) in routes {
                let refused = try await admin(client, path, method: method, json: json, as: token)
                #expect(refused.status == .forbidden, "\(method) \(path): \(refused.object)")
                let endpoint = path.replacingOccurrences(of: Self.teamApp, with: "{id}").replacingOccurrences(of: "/team-c", with: "/{name}")
                #expect(
                    refused.message == "Only the organisation's admin token may use \(method.rawValue) \(endpoint). \(Self.scope)",
                    "\(refused.object)")
            }
            #expect(provider.services.clock.offset == 0, "the clock did not move")
            #expect(try await provider.store.users().count == 3, "nothing was reset")
            #expect(try await provider.store.adminCredentials().count == 1)
            #expect(try await provider.store.app(id: "4444444444") == nil)
            #expect(try await provider.store.app(id: Self.teamApp) != nil)

            let apps = try await admin(client, "/_admin/apps", as: token)
            #expect(apps.object["apps"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [Self.teamApp])
            let users = try await admin(client, "/_admin/users", as: token)
            #expect(users.object["users"] == .array([]), "no fixture user is a test user of the team's app")
        }
    }

    @Test("another app's test users do not exist for it, and its apps' routes refuse it: nothing changes")
    func otherAppsUsers() async throws {
        try await withTeam { client, token, provider in
            let notFound = "No test user with ID or email \(TestFixtures.alice)."
            let deleted = try await admin(client, "/_admin/users/\(TestFixtures.alice)", method: .delete, as: token)
            #expect(deleted.status == .notFound && deleted.message == notFound, "\(deleted.object)")
            let edited = try await admin(client, "/_admin/users/\(TestFixtures.alice)", method: .post, json: #"{"first_name": "Eve"}"#, as: token)
            #expect(edited.status == .notFound && edited.message == notFound, "\(edited.object)")
            let pulled = try await admin(client, "/_admin/apps/\(Self.teamApp)/test-users/\(TestFixtures.alice)", method: .put, as: token)
            #expect(pulled.status == .notFound && pulled.message == notFound, "\(pulled.object)")
            let roleHere = try await admin(
                client, "/_admin/apps/\(Self.teamApp)/roles/\(TestFixtures.alice)", method: .put, json: #"{"role": "tester"}"#, as: token)
            #expect(roleHere.status == .notFound && roleHere.message == notFound, "\(roleHere.object)")
            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id": "\#(Self.teamApp)", "user": "alice@example.com"}"#, as: token)
            #expect(minted.status == .notFound && minted.message == "No test user alice@example.com (give an ID or an email).", "\(minted.object)")
            let grants = try await admin(client, "/_admin/grants?user_id=\(TestFixtures.alice)", as: token)
            #expect(grants.status == .notFound && grants.message == notFound, "\(grants.object)")

            let notTheirs = "App \(TestFixtures.appID) is not this credential's. \(Self.scope)"
            let role = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)/roles/\(TestFixtures.alice)", method: .put, json: #"{"role": "admin"}"#, as: token)
            #expect(role.status == .forbidden && role.message == notTheirs, "\(role.object)")
            let mode = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"mode": "development"}"#, as: token)
            #expect(mode.status == .forbidden && mode.message == notTheirs, "\(mode.object)")
            let uninstall = try await admin(client, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)", method: .delete, as: token)
            #expect(uninstall.status == .forbidden && uninstall.message == notTheirs, "\(uninstall.object)")
            let mintThere = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "user": "alice@example.com"}"#, as: token)
            #expect(mintThere.status == .forbidden && mintThere.message == notTheirs, "\(mintThere.object)")

            let alice = try #require(try await provider.store.user(id: TestFixtures.alice))
            #expect(alice.firstName == "Alice")
            #expect(try await provider.store.role(appID: TestFixtures.appID, userID: TestFixtures.alice) == nil)
            #expect(try await provider.store.app(id: TestFixtures.appID)?.mode == .live)
            #expect(try await !provider.store.isTestUser(TestFixtures.alice, ofApp: Self.teamApp))
        }
    }

    @Test("its own test users: made for its apps only, edited, minted for, deleted; one another app shares is only read")
    func ownUsers() async throws {
        try await withTeam { client, token, provider in
            let user = #"{"first_name": "Cat", "last_name": "One", "email": "cat@example.com", "password": "cat-pass""#
            let noApps = try await admin(client, "/_admin/users", method: .post, json: user + "}", as: token)
            let onlyOurs = "A new test user (\"apps\") must belong to this credential's apps only. \(Self.scope)"
            #expect(noApps.status == .forbidden && noApps.message == onlyOurs, "\(noApps.object)")
            let elsewhere = try await admin(
                client, "/_admin/users", method: .post, json: user + #", "apps": ["\#(TestFixtures.appID)"]}"#, as: token)
            #expect(elsewhere.status == .forbidden && elsewhere.message == onlyOurs, "\(elsewhere.object)")
            let befriending = try await admin(
                client, "/_admin/users", method: .post, json: user + #", "apps": ["\#(Self.teamApp)"], "friends": ["alice@example.com"]}"#, as: token)
            #expect(
                befriending.status == .badRequest
                    && befriending.message == "The friend alice@example.com is not a test user (give an ID or an email).",
                "\(befriending.object)")
            #expect(try await provider.store.user(idOrEmail: "cat@example.com") == nil, "nothing was made")

            let made = try await admin(client, "/_admin/users", method: .post, json: user + #", "apps": ["\#(Self.teamApp)"]}"#, as: token)
            #expect(made.status == .created, "\(made.object)")
            let id = try #require(made.object["id"]?.stringValue)
            let renamed = try await admin(client, "/_admin/users/\(id)", method: .post, json: #"{"first_name": "Kit"}"#, as: token)
            #expect(renamed.status == .ok && renamed.object["first_name"] == "Kit", "\(renamed.object)")
            let widened = try await admin(
                client, "/_admin/users/\(id)", method: .post, json: #"{"apps": ["\#(Self.teamApp)", "\#(TestFixtures.appID)"]}"#, as: token)
            #expect(
                widened.status == .forbidden
                    && widened.message == "A test user's new \"apps\" must belong to this credential's apps only. \(Self.scope)")
            #expect(try await provider.store.appsOfTestUser(id) == [Self.teamApp])
            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id": "\#(Self.teamApp)", "user": "cat@example.com"}"#, as: token)
            #expect(minted.status == .created, "\(minted.object)")

            // Shared with the fixtures' app by the organisation: the team still sees the user, and may not delete them.
            #expect(try await admin(client, "/_admin/apps/\(TestFixtures.appID)/test-users/\(id)", method: .put).status == .ok)
            let listed = try await admin(client, "/_admin/users", as: token)
            #expect(listed.object["users"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [id])
            let shared = try await admin(client, "/_admin/users/\(id)", method: .delete, as: token)
            #expect(
                shared.status == .forbidden && shared.message == "A test user deleted here must belong to this credential's apps only. \(Self.scope)")
            #expect(try await provider.store.user(id: id) != nil)
            #expect(try await admin(client, "/_admin/apps/\(TestFixtures.appID)/test-users/\(id)", method: .delete).status == .ok)
            let gone = try await admin(client, "/_admin/users/\(id)", method: .delete, as: token)
            #expect(gone.status == .ok, "\(gone.object)")
            #expect(try await provider.store.user(id: id) == nil)
        }
    }

    @Test("revoked: 401 naming it from the next request; names, apps and tokens that cannot be used are refused")
    func revocationAndBadInput() async throws {
        try await withTeam { client, token, provider in
            #expect(try await admin(client, "/_admin/apps", as: token).status == .ok)
            let revoked = try await admin(client, "/_admin/credentials/team-c", method: .delete)
            #expect(revoked.status == .ok && revoked.object["name"] == "team-c", "\(revoked.object)")
            let refused = try await admin(client, "/_admin/apps", as: token)
            #expect(refused.status == .unauthorized && refused.message == "The credential team-c was revoked.", "\(refused.object)")
            let again = try await admin(client, "/_admin/credentials/team-c", method: .delete)
            #expect(again.status == .notFound && again.message == "No credential named team-c that is not revoked already.")
            let listed = try await admin(client, "/_admin/credentials")
            #expect(listed.object["credentials"]?.arrayValue?.first?.objectValue?["revoked_at"]?.numberValue != nil)
            let sameName = try await admin(client, "/_admin/credentials", method: .post, json: #"{"name": "team-c", "apps": ["\#(Self.teamApp)"]}"#)
            #expect(sameName.status == .conflict && sameName.message == "A credential named team-c exists already (revoked ones keep their names).")

            let nameRule = "A credential's name is 1 to 64 letters, digits, spaces, '.', '_' or '-'."
            for name in ["", "a\\u0001b", "tab\\tname", String(repeating: "n", count: 10_240), " lead", "é"] {
                let bad = try await admin(client, "/_admin/credentials", method: .post, json: #"{"name": "\#(name)", "apps": ["\#(Self.teamApp)"]}"#)
                #expect(bad.status == .badRequest && bad.message == nameRule, "\(name.prefix(20)): \(bad.object)")
            }
            let reserved = try await admin(
                client, "/_admin/credentials", method: .post, json: #"{"name": "organisation", "apps": ["\#(Self.teamApp)"]}"#)
            #expect(
                reserved.status == .badRequest && reserved.message == "The name organisation is the admin token's in the admin log; choose another.")
            let noApps = try await admin(client, "/_admin/credentials", method: .post, json: #"{"name": "x", "apps": []}"#)
            #expect(noApps.status == .badRequest && noApps.message == "Give \"apps\": the IDs of 1 to 100 apps it may touch.")
            let missing = try await admin(client, "/_admin/credentials", method: .post, json: #"{"name": "x", "apps": ["9999999999"]}"#)
            #expect(missing.status == .badRequest && missing.message == "The app 9999999999 does not exist (give existing apps' IDs).")
            #expect(try await provider.store.adminCredentials().map(\.name) == ["team-c"], "nothing half made")

            // A credential-shaped token nobody was given is a wrong admin token.
            let forged = try await admin(client, "/_admin/apps", as: AdminCredentialToken.make())
            #expect(forged.status == .forbidden && forged.message == "The admin token is wrong.")
        }
    }

    @Test("every admin write is in the log (who, what, on what, node); reads and refusals are not; a credential reads its own")
    func adminLog() async throws {
        try await withTeam { client, token, _ in
            #expect(try await admin(client, "/_admin/apps/\(Self.teamApp)", method: .post, json: #"{"name": "Team C 2"}"#, as: token).status == .ok)
            _ = try await admin(client, "/_admin/keys", as: token)
            _ = try await admin(client, "/_admin/users")
            let log = try await admin(client, "/_admin/log")
            let entries = (log.object["entries"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(
                entries.map { [$0["credential"]?.stringValue, $0["operation"]?.stringValue, $0["target"]?.stringValue] } == [
                    ["team-c", "POST /_admin/apps/{id}", "/_admin/apps/\(Self.teamApp)"],
                    ["organisation", "POST /_admin/credentials", "/_admin/credentials"],
                    ["organisation", "POST /_admin/apps", "/_admin/apps"],
                ], "\(entries)")
            let node = "\(ProcessInfo.processInfo.hostName) pid \(ProcessInfo.processInfo.processIdentifier)"
            #expect(entries.allSatisfy { $0["node"]?.stringValue == node && ($0["at"]?.numberValue ?? 0) > 1_700_000_000 })
            let own = try await admin(client, "/_admin/log", as: token)
            #expect(own.object["entries"]?.arrayValue?.compactMap { $0.objectValue?["credential"]?.stringValue } == ["team-c"])
            let one = try await admin(client, "/_admin/log?limit=1")
            #expect(one.object["entries"]?.arrayValue?.count == 1)
            let bad = try await admin(client, "/_admin/log?limit=0")
            #expect(bad.status == .badRequest && bad.message == "limit must be from 1 to 10000.")
        }
    }

    @Test("scenarios: queued, listed, cleared and removed for its apps only; another app's stay")
    func scenarios() async throws {
        try await withTeam { client, token, provider in
            let ours = try await admin(
                client, "/_admin/scenarios", method: .post, json: #"{"app_id": "\#(Self.teamApp)", "outcome": "cancel"}"#, as: token)
            #expect(ours.status == .created, "\(ours.object)")
            let theirs = try await admin(
                client, "/_admin/scenarios", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "outcome": "cancel"}"#, as: token)
            #expect(theirs.status == .forbidden && theirs.message == "App \(TestFixtures.appID) is not this credential's. \(Self.scope)")
            let forAlice = try await admin(
                client, "/_admin/scenarios", method: .post,
                json: #"{"app_id": "\#(Self.teamApp)", "user": "alice@example.com", "outcome": "cancel"}"#,
                as: token)
            #expect(forAlice.status == .notFound && forAlice.message == "No test user alice@example.com (give an ID or an email).")
            let organisations = try await admin(
                client, "/_admin/scenarios", method: .post, json: #"{"app_id": "\#(TestFixtures.appID)", "outcome": "cancel"}"#)
            let otherID = try #require(organisations.object["id"]?.numberValue.map { Int($0) })
            let listed = try await admin(client, "/_admin/scenarios", as: token)
            #expect(listed.object["scenarios"]?.arrayValue?.compactMap { $0.objectValue?["app_id"]?.stringValue } == [Self.teamApp])
            let removeOther = try await admin(client, "/_admin/scenarios/\(otherID)", method: .delete, as: token)
            #expect(removeOther.status == .notFound, "\(removeOther.object)")
            let clearOther = try await admin(client, "/_admin/scenarios?app_id=\(TestFixtures.appID)", method: .delete, as: token)
            #expect(clearOther.status == .forbidden, "\(clearOther.object)")
            let cleared = try await admin(client, "/_admin/scenarios", method: .delete, as: token)
            #expect(cleared.object["removed"] == 1, "\(cleared.object)")
            #expect(provider.services.scenarios.all.map(\.appID) == [TestFixtures.appID], "the other app's scenario stays")
            let deliveries = try await admin(client, "/_admin/deliveries", as: token)
            #expect(deliveries.status == .ok && deliveries.object["deliveries"] == .array([]))
        }
    }

    @Test("the log keeps only its newest entries", arguments: StoreDialect.available)
    func logBound(dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            for index in 1...6 {
                let entry = AdminLogEntry(id: "e\(index)", at: Int64(index), credential: "c", operation: "POST /x", target: "/x", node: "n")
                try await store.appendAdminLog(entry, keeping: 4)
            }
            #expect(try await store.adminLog(limit: 10).map(\.id) == ["e6", "e5", "e4", "e3"])
        }
    }
}

/// A credential made through one node is honoured, and its revocation refused, by another node at its next request.
@Suite(
    "Admin API: credentials across two nodes",
    .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
struct ScopedCredentialNodesTests {
    @Test("made on one node, used and revoked across both; both nodes' writes in one log")
    func acrossNodes() async throws {
        var shared = harnessConfiguration()
        shared.store = try await StoreDialect.postgres.freshLocation()
        let configuration = shared
        try await withProvider(configuration) { first, _ in
            try await withProvider(configuration) { second, _ in
                let made = try await admin(
                    first, "/_admin/credentials", method: .post, json: #"{"name": "team-a", "apps": ["\#(TestFixtures.appID)"]}"#)
                let token = try #require(made.object["token"]?.stringValue, "\(made.object)")
                let edit = try await admin(second, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"name": "Renamed"}"#, as: token)
                #expect(edit.status == .ok, "\(edit.object)")
                #expect(try await admin(first, "/_admin/credentials/team-a", method: .delete).status == .ok)
                let refused = try await admin(second, "/_admin/apps", as: token)
                #expect(refused.status == .unauthorized && refused.message == "The credential team-a was revoked.", "\(refused.object)")
                let log = try await admin(second, "/_admin/log")
                #expect(
                    log.object["entries"]?.arrayValue?.compactMap { $0.objectValue?["operation"]?.stringValue } == [
                        "DELETE /_admin/credentials/{name}", "POST /_admin/apps/{id}", "POST /_admin/credentials",
                    ])
            }
        }
    }
}
