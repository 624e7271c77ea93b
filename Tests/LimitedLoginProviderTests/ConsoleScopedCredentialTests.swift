import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #59 item 2 in the console: it signs in with a scoped credential too, and then shows and allows only
/// what the credential may touch; a revocation ends its sessions.
@Suite("Console: signed in with a scoped credential")
struct ConsoleScopedCredentialTests {
    static let teamApp = ScopedCredentialTests.teamApp

    @Test("it sees its app and users only; the organisation's sections, changes and export are refused; its changes are logged")
    func scopedConsole() async throws {
        try await ScopedCredentialTests().withTeam { client, token, provider in
            let browser = DialogBrowser(client: client)
            var form = FormParameters()
            form.append("admin_token", token)
            let signedIn = try await browser.post("/_console/signin", form: form)
            #expect(signedIn.status == .seeOther, "\(signedIn.status) \(signedIn.body.prefix(300))")
            let overview = try await browser.get("/_console")
            #expect(overview.status == .ok && overview.body.contains("apps the credential team-c manages"), "\(overview.body.prefix(600))")
            #expect(!overview.body.contains("/_console/keys"), "the navigation leaves out the organisation's sections")
            let csrf = try #require(overview.hiddenInput("csrf"))

            let apps = try await browser.get("/_console/apps")
            #expect(apps.body.contains(Self.teamApp) && !apps.body.contains(TestFixtures.appID), "\(apps.body.count)")
            let users = try await browser.get("/_console/users")
            #expect(users.status == .ok && !users.body.contains("alice@example.com"))
            let keys = try await browser.get("/_console/keys")
            #expect(
                keys.status == .forbidden && keys.body.contains("Signing keys needs the organisation&#39;s admin token."), "\(keys.body.prefix(900))")
            let export = try await browser.get("/_console/export")
            #expect(export.status == .forbidden)

            let keysBefore = try await provider.services.keyring.current().records.count
            let rotate = try await ConsoleTests.act(browser, "rotate-key", csrf: csrf, [("publish_delay", "0")])
            #expect(rotate.status == .forbidden && rotate.body.contains("This change needs the organisation&#39;s admin token."))
            #expect(try await provider.services.keyring.current().records.count == keysBefore)
            let deleteAlice = try await ConsoleTests.act(browser, "delete-user", csrf: csrf, [("user_id", TestFixtures.alice)])
            #expect(deleteAlice.status == .notFound, "\(deleteAlice.status)")
            #expect(try await provider.store.user(id: TestFixtures.alice) != nil)
            let confirm = try await browser.get("/_console/confirm/delete-user?user_id=\(TestFixtures.alice)")
            #expect(confirm.status == .notFound && !confirm.body.contains("Alice"), "\(confirm.body.prefix(600))")
            let renameTheirs = try await ConsoleTests.act(browser, "edit-app", csrf: csrf, [("app_id", TestFixtures.appID), ("name", "Mine now")])
            #expect(renameTheirs.status == .forbidden)
            #expect(try await provider.store.app(id: TestFixtures.appID)?.name == "Test App")
            let renameOurs = try await ConsoleTests.act(browser, "edit-app", csrf: csrf, [("app_id", Self.teamApp), ("name", "Team C renamed")])
            #expect(renameOurs.status == .seeOther, "\(renameOurs.status) \(renameOurs.body.prefix(300))")
            #expect(try await provider.store.app(id: Self.teamApp)?.name == "Team C renamed")
            let log = try await provider.store.adminLog(limit: 1)
            #expect(log.first?.credential == "team-c" && log.first?.operation == "console edit-app", "\(log)")
            let logPage = try await browser.get("/_console/log")
            #expect(logPage.status == .ok && logPage.body.contains("<code>console edit-app</code>"), "\(logPage.body.prefix(900))")
            #expect(!logPage.body.contains("POST /_admin/credentials"), "the organisation's writes are not its to read")

            // Revoked: its console session ends at the next request.
            #expect(try await admin(client, "/_admin/credentials/team-c", method: .delete).status == .ok)
            let after = try await browser.get("/_console/apps")
            #expect(after.body.contains(#"id="console-signin""#), "\(after.body.prefix(300))")
            let again = try await browser.post("/_console/signin", form: form)
            #expect(again.status == .unauthorized, "a revoked credential does not sign in")
        }
    }
}
