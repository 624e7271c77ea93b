import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #33: apps in Development mode let in only the people with a role on them (admin, developer,
/// tester), with the real service's page for the others; Live apps anyone. Through the admin API, fixtures
/// and export.
@Suite("Apps: Development and Live modes, roles")
struct AppModeTests {
    func login(_ client: any TestClientProtocol, as user: String, extra: [(String, String)] = []) async throws -> Page {
        try await DialogBrowser(client: client).logIn(
            dialogPath(appID: TestFixtures.appID, redirectURI: TestFixtures.registeredRedirect, scope: "openid,public_profile", extra: extra),
            as: user)
    }

    /// The login ended in a redirect carrying an ID token (302 from the dialog, 303 after the consent form).
    static func admitted(_ page: Page) -> Bool {
        (page.status == .found || page.status == .seeOther) && (page.location?.contains("id_token=") ?? false)
    }

    @Test("in Development mode a person without a role gets 'App not set up'; a tester gets in; the role taken away, refused again")
    func developmentMode() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let switched = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"mode": "development"}"#)
            #expect(switched.status == .ok && switched.object["mode"] == "development", "\(switched.object)")
            let refused = try await login(client, as: TestFixtures.alice)
            #expect(refused.status == .forbidden)
            #expect(refused.body.contains("App not set up"))
            #expect(
                refused.body.contains("This app is still in development mode, and you don&#39;t have access to it."), "\(refused.body.prefix(800))")
            #expect(refused.location == nil, "no redirect carries a token")

            // Refused, the person can switch to another account from that page: its form ends the session and
            // reopens the same request at sign-in, where someone with a role gets in.
            let browser = DialogBrowser(client: client)
            let path = dialogPath(appID: TestFixtures.appID, redirectURI: TestFixtures.registeredRedirect, scope: "openid,public_profile")
            _ = try await browser.logIn(path, as: TestFixtures.bob)
            let stuck = try await browser.get(path)
            #expect(stuck.status == .forbidden)
            let offersSwitch = stuck.body.contains("id=\"switch-account-form\"")
            #expect(offersSwitch, "\(stuck.body.prefix(600))")
            var form = FormParameters()
            form.append("csrf_token", try #require(stuck.hiddenInput("csrf_token")))
            form.append("request", try #require(stuck.hiddenInput("request")))
            form.append("action", "switch")
            let signedOut = try await browser.post(DialogController.confirmPath, form: form)
            #expect(signedOut.status == .seeOther, "\(signedOut.status) \(signedOut.body.prefix(300))")
            let signIn = try await browser.get(try #require(signedOut.location))
            let atSignIn = signIn.body.contains("id=\"password-form\"")
            #expect(signIn.status == .ok && atSignIn, "back at sign-in for the same request")
            _ = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles/carol@example.com", method: .put, json: #"{"role": "tester"}"#)
            let carol = try await browser.signIn(as: TestFixtures.carol, on: signIn)
            var page = try await browser.get(try #require(carol.location))
            if page.body.contains("id=\"consent-form\"") { page = try await browser.consent(on: page) }
            #expect(Self.admitted(page), "\(page.status) \(page.body.prefix(300))")
            #expect(try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles/\(TestFixtures.carol)", method: .delete).status == .ok)

            let given = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)/roles/alice@example.com", method: .put, json: #"{"role": "tester"}"#)
            #expect(given.object == ["user_id": .string(TestFixtures.alice), "role": "tester"])
            let admitted = try await login(client, as: TestFixtures.alice)
            #expect(Self.admitted(admitted), "\(admitted.status) \(admitted.body.prefix(300))")
            let listed = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles")
            #expect(listed.object["roles"] == .array([.object(["user_id": .string(TestFixtures.alice), "role": "tester"])]))

            #expect(try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles/\(TestFixtures.alice)", method: .delete).status == .ok)
            let again = try await login(client, as: TestFixtures.alice)
            #expect(again.status == .forbidden)
            let silent = try await login(client, as: TestFixtures.alice, extra: [("prompt", "none")])
            #expect(silent.location?.contains("error=login_required") == true, "\(String(describing: silent.location))")

            let live = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"mode": "live"}"#)
            #expect(live.object["mode"] == nil, "live is the default and is not written")
            #expect(Self.admitted(try await login(client, as: TestFixtures.alice)))
        }
    }

    @Test("fixtures give the mode and roles (by email); export writes them back by user ID")
    func fixturesAndExport() async throws {
        var configuration = harnessConfiguration()
        var fixtures = try #require(configuration.fixtures)
        fixtures.apps[0].mode = "development"
        fixtures.apps[0].roles = ["bob@example.com": "developer"]
        configuration.fixtures = fixtures
        try await withProvider(configuration) { client, provider in
            #expect(Self.admitted(try await login(client, as: TestFixtures.bob)))
            #expect(try await login(client, as: TestFixtures.alice).status == .forbidden)
            let exported = try await provider.exportState(includingKeys: false)
            let state = try JSONDecoder().decode(ProviderFixtures.self, from: exported)
            let app = try #require(state.apps.first { $0.id == TestFixtures.appID })
            #expect(app.mode == "development" && app.roles == [TestFixtures.bob: "developer"])
        }
    }

    @Test("the console sets the mode and the roles; a role line that does not fit changes nothing")
    func console() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let browser = DialogBrowser(client: client)
            let page = try await ConsoleTests.signIn(browser)
            let csrf = try #require(page.hiddenInput("csrf"))
            let app: [(String, String)] = [("app_id", TestFixtures.appID), ("name", "Test App")]
            let bad = try await ConsoleTests.act(browser, "edit-app", csrf: csrf, app + [("mode", "development"), ("roles", "bob@example.com boss")])
            #expect(
                bad.body.contains("Each role line is a test user&#39;s email or ID, then admin, developer or tester"),
                "\(bad.status) \(bad.body.prefix(400))")
            #expect(Self.admitted(try await login(client, as: TestFixtures.alice)), "nothing changed: still live")
            // The other way round: good role lines beside an app field the provider refuses write no role either.
            let badURI = try await ConsoleTests.act(
                browser, "edit-app", csrf: csrf,
                app + [("redirect_uris", "http://evil.example/cb"), ("mode", "development"), ("roles", "bob@example.com tester")])
            #expect(badURI.status == .badRequest && badURI.body.contains("http://evil.example/cb"), "\(badURI.status) \(badURI.body.prefix(400))")
            let rolesAfter = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles")
            #expect(rolesAfter.object["roles"] == .array([]), "a refused form wrote roles: \(rolesAfter.object)")
            let good = try await ConsoleTests.act(
                browser, "edit-app", csrf: csrf, app + [("mode", "development"), ("roles", "bob@example.com tester")])
            #expect(good.status == .seeOther, "\(good.body.prefix(300))")
            #expect(try await login(client, as: TestFixtures.alice).status == .forbidden)
            #expect(Self.admitted(try await login(client, as: TestFixtures.bob)))
            let console = try await browser.get("/_console/apps")
            #expect(console.body.contains("bob@example.com tester</textarea>") && console.body.contains(#"<span class="tag">development</span>"#))
        }
    }

    @Test("refused: an unknown mode, an unknown role, an unknown person, a role not held, an unknown role in fixtures")
    func refusals() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let mode = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"mode": "beta"}"#)
            #expect(mode.status == .badRequest && mode.message == "The mode \"beta\" must be development or live.")
            let role = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)/roles/\(TestFixtures.alice)", method: .put, json: #"{"role": "owner"}"#)
            #expect(role.status == .badRequest && role.message == "The role \"owner\" must be admin, developer or tester.")
            let nobody = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)/roles/nobody@example.com", method: .put, json: #"{"role": "tester"}"#)
            #expect(nobody.status == .notFound && nobody.message == "No test user with ID or email nobody@example.com.")
            let notHeld = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/roles/\(TestFixtures.alice)", method: .delete)
            #expect(notHeld.status == .notFound && notHeld.message == "alice@example.com has no role on app \(TestFixtures.appID).")
            let created = try await admin(
                client, "/_admin/apps", method: .post,
                json: #"{"id": "777", "name": "Dev", "mode": "development", "roles": {"carol@example.com": "admin"}}"#)
            #expect(created.status == .created && created.object["roles"] == .object([TestFixtures.carol: "admin"]), "\(created.object)")
            let roles = try await admin(client, "/_admin/apps/777/roles")
            #expect(roles.object["roles"] == .array([.object(["user_id": .string(TestFixtures.carol), "role": "admin"])]))
            let unknownPerson = try await admin(
                client, "/_admin/apps", method: .post, json: #"{"id": "778", "name": "Dev", "roles": {"nobody@example.com": "admin"}}"#)
            #expect(unknownPerson.status == .notFound && unknownPerson.message == "No test user with ID or email nobody@example.com.")
            #expect(try await admin(client, "/_admin/apps/778/roles").status == .notFound, "nothing was made")
            let noApp = try await admin(client, "/_admin/apps/999/roles")
            #expect(noApp.status == .notFound && noApp.message == "No app with ID 999.")
        }
        var fixtures = TestFixtures.fixtures
        fixtures.apps[0].roles = ["alice@example.com": "owner"]
        #expect(
            throws: FixturesError.invalid("app \(TestFixtures.appID): the role \"owner\" of alice@example.com must be admin, developer or tester")
        ) {
            try fixtures.validate()
        }
    }
}
