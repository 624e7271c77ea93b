import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #30 item 4: a misspelt key in a fixtures file or an admin request is refused, naming the key, its
/// place and the accepted keys (it was ignored: a user made without the email meant, an app without its
/// redirect URI); a fixtures file with a name given twice is refused too (#31).
@Suite("Strict input: fixtures files and admin request bodies")
struct StrictInputTests {
    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "fixtures: an unknown key at the top, in an app, in a user and in a user's hometown; a name given twice",
        arguments: [
            (
                #"{"apps": [], "userz": []}"#,
                "the fixtures are invalid: unknown key \"userz\" in the file; the accepted keys are: access_tokens, app_scoped_ids, apps, clock_offset, emptied, grants, scenarios, signing_keys, users"
            ),
            (
                #"{"apps": [{"id": "1234", "name": "A", "redirect_uri": "https://a.example/cb"}]}"#,
                "the fixtures are invalid: unknown key \"redirect_uri\" in apps[0]; the accepted keys are: business_id, data_deletion_callback_url, deauthorize_callback_url, gaming, id, mode, name, redirect_uris, require_appsecret_proof, roles, secret, url_scheme_suffixes"
            ),
            (
                #"{"users": [{"first_name": "A", "last_name": "B", "emial": "a@example.com"}]}"#,
                "the fixtures are invalid: unknown key \"emial\" in users[0]; the accepted keys are: age_range, apps, birthday, email, first_name, friends, gaming_name, gender, hometown, id, last_name, link, location, middle_name, password, password_hash, pickable"
            ),
            (
                #"{"users": [{"first_name": "A", "last_name": "B", "email": "a@example.com", "hometown": {"id": "1", "nam": "Paris"}}]}"#,
                "the fixtures are invalid: unknown key \"nam\" in users[0].hometown; the accepted keys are: id, name"
            ),
        ])
    func fixturesKeys(text: String, message: String) throws {
        let path = try file(text)
        #expect(throws: FixturesError.invalid(String(message.dropFirst("the fixtures are invalid: ".count)))) {
            try ProviderFixtures.load(path: path)
        }
        do { _ = try ProviderFixtures.load(path: path) } catch { #expect(error.description == message) }
    }

    @Test("fixtures: \"apps\" twice is refused as invalid JSON, not read as the last one")
    func duplicateNames() throws {
        let path = try file(#"{"apps": [{"id": "1", "name": "A"}], "apps": []}"#)
        do {
            _ = try ProviderFixtures.load(path: path)
            Issue.record("a file with \"apps\" twice was loaded")
        } catch {
            guard case .unreadable(_, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.hasPrefix("it is not valid JSON ("), "\(reason)")
        }
    }

    @Test(
        "admin requests: a misspelt key is refused (400) with the accepted keys, and nothing changes",
        arguments: [
            (
                "/_admin/apps", #"{"id": "4444", "name": "X", "redirect_uri": "https://x.example/cb"}"#,
                "Unknown key \"redirect_uri\"; the accepted keys are: business_id, data_deletion_callback_url, deauthorize_callback_url, gaming, id, mode, name, redirect_uris, require_appsecret_proof, roles, secret, url_scheme_suffixes."
            ),
            (
                "/_admin/users", #"{"first_name": "A", "last_name": "B", "emial": "x@example.com"}"#,
                "Unknown key \"emial\"; the accepted keys are: age_range, apps, birthday, email, first_name, friends, gaming_name, gender, hometown, id, last_name, link, location, middle_name, password, password_hash, pickable."
            ),
            (
                "/_admin/friendships", #"{"user_id": "100001", "friend": "100003"}"#,
                "Unknown key \"friend\"; the accepted keys are: friend_id, user_id."
            ),
            ("/_admin/clock", #"{"advanse": 60}"#, "Unknown key \"advanse\"; the accepted keys are: advance, force, reset, set."),
            (
                "/_admin/scenarios", #"{"app_id": "1111111111", "outcome": "cancel", "usr": "alice@example.com"}"#,
                "Unknown key \"usr\"; the accepted keys are: app_id, claims, code, error, message, outcome, user."
            ),
            ("/_admin/reset", #"{"emtpy": true}"#, "Unknown key \"emtpy\"; the accepted keys are: empty."),
        ])
    func adminKeys(path: String, body: String, message: String) async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let appsBefore = try await provider.store.apps().count
            let reply = try await admin(client, path, method: .post, json: body)
            #expect(reply.status == .badRequest)
            #expect(reply.message == message)
            #expect(try await provider.store.apps().count == appsBefore)
            #expect(provider.clock.offset == 0)
        }
    }

    @Test("grant routes take an email wherever they take a user ID; an unknown one is named")
    func grantRoutesTakeEmails() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let app = TestFixtures.appID
            let minted = try await admin(
                client, "/_admin/tokens", method: .post,
                json: #"{"app_id":"\#(app)","user":"alice@example.com","tracking":"enabled","permissions":["email","user_birthday"]}"#
            )
            #expect(minted.status == .created, "\(minted.message ?? "")")
            let revoked = try await admin(client, "/_admin/grants/\(app)/alice@example.com/permissions/user_birthday", method: .delete)
            #expect(revoked.status == .ok, "\(revoked.message ?? "")")
            #expect(try await provider.store.grant(appID: app, userID: TestFixtures.alice)?.granted.contains(.userBirthday) == false)
            let expired = try await admin(client, "/_admin/grants/\(app)/alice@example.com/expire-data-access", method: .post)
            #expect(expired.status == .ok && expired.object["access_tokens"] == 1, "\(expired.message ?? "")")
            let uninstalled = try await admin(client, "/_admin/grants/\(app)/alice@example.com", method: .delete)
            #expect(uninstalled.status == .ok)
            #expect(try await provider.store.grant(appID: app, userID: TestFixtures.alice)?.installed == false)
            let unknown = try await admin(client, "/_admin/grants/\(app)/nobody@example.com", method: .delete)
            #expect(unknown.status == .notFound && unknown.message == "No test user with ID or email nobody@example.com.")
            let notInstalled = try await admin(client, "/_admin/grants/\(app)/alice@example.com", method: .delete)
            #expect(notInstalled.message == "Test user alice@example.com has not installed app \(app) (no login, or uninstalled).")
        }
    }
}
