import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #31 item 5: a console session ends at sign-out and at an admin-token change for good: a kept
/// `ll_console` cookie is refused afterwards, also by another browser's session, and across restarts.
@Suite("Console sessions end for good")
struct ConsoleSessionEndTests {
    /// The `ll_console` cookie a browser holds after signing in.
    static func consoleCookie(_ browser: DialogBrowser) throws -> String {
        let header = try #require(browser.setCookieHeaders.last { $0.hasPrefix("ll_console=") })
        return String(header.split(separator: ";", maxSplits: 1)[0])
    }

    /// The console page's status and whether it is the console itself (not its sign-in), for a kept cookie.
    static func replay(_ cookie: String, _ client: any TestClientProtocol) async throws -> Bool {
        let response = try await client.execute(uri: "/_console", method: .get, headers: [.cookie: cookie], body: nil)
        return String(buffer: response.body).contains(#"id="console-overview""#)
    }

    @Test("sign-out ends the session whose cookie a browser kept, and every other console session")
    func signOutEndsSessions() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let browser = DialogBrowser(client: client)
            let other = DialogBrowser(client: client)
            let page = try await ConsoleTests.signIn(browser)
            _ = try await ConsoleTests.signIn(other)
            let kept = try Self.consoleCookie(browser)
            let otherKept = try Self.consoleCookie(other)
            #expect(try await Self.replay(kept, client))
            var form = FormParameters()
            form.append("csrf", try #require(page.hiddenInput("csrf")))
            #expect(try await browser.post("/_console/signout", form: form).status == .seeOther)
            #expect(try await Self.replay(kept, client) == false, "the kept cookie still opens the console")
            #expect(try await Self.replay(otherKept, client) == false, "another console session outlived the sign-out")
            // A new sign-in works as before.
            let again = DialogBrowser(client: client)
            _ = try await ConsoleTests.signIn(again)
            #expect(try await Self.replay(try Self.consoleCookie(again), client))
        }
    }

    @Test("a restart keeps console sessions; a restart with another admin token ends them, and going back to the old token does not revive them")
    func adminTokenChange() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-epoch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func configuration(_ adminToken: String) -> ProviderConfiguration {
            var configuration = harnessConfiguration()
            configuration.store = .sqliteFile(path: folder.appendingPathComponent("store.sqlite").path)
            configuration.adminToken = adminToken
            return configuration
        }
        /// A provider on the file for the length of `body`, its store closed before the next one opens it.
        func served<Value: Sendable>(_ adminToken: String, _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
            let provider = try await LimitedLoginProvider.prepare(configuration(adminToken), logger: TestFixtures.quietLogger)
            do {
                let value = try await provider.application().test(.router) { client in try await body(client) }
                await provider.store.close()
                return value
            } catch {
                await provider.store.close()
                throw error
            }
        }
        let first = KeyRotationAndAdminTests.adminToken
        let second = "another-admin-token-of-16+"
        let kept: String = try await served(first) { client in
            let browser = DialogBrowser(client: client)
            _ = try await ConsoleTests.signIn(browser)
            return try Self.consoleCookie(browser)
        }
        try await served(first) { client in
            let open = try await Self.replay(kept, client)
            #expect(open, "a plain restart ended the console session")
        }
        try await served(second) { client in
            let open = try await Self.replay(kept, client)
            #expect(!open)
        }
        try await served(first) { client in
            let open = try await Self.replay(kept, client)
            #expect(!open, "the old admin token revived an ended session")
        }
    }
}
