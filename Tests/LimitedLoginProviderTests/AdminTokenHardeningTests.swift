import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #31 item 1: an empty, blank or short admin token is refused at start (an empty one opened the
/// console), and wrong admin tokens are limited per client address on the admin API and the console.
@Suite("Admin token: refused when weak, guesses limited")
struct AdminTokenHardeningTests {
    @Test(
        "empty, blank, tab, control-character and short admin tokens stop the provider before it starts",
        arguments: [
            ("", "the admin token is empty (an unset variable?): give one of at least 16 characters, or none and the provider makes one"),
            (" ", "the admin token is only white space: give one of at least 16 characters, or none and the provider makes one"),
            ("\t", "the admin token is only white space: give one of at least 16 characters, or none and the provider makes one"),
            ("   \n  ", "the admin token is only white space: give one of at least 16 characters, or none and the provider makes one"),
            ("sixteen-chars\tok", "the admin token has a control character (a tab or a line break?), which no Authorization header can carry"),
            ("a", "the admin token has 1 character; it needs at least 16 (e.g. 'openssl rand -hex 16')"),
            ("fifteen-chars-x", "the admin token has 15 characters; it needs at least 16 (e.g. 'openssl rand -hex 16')"),
        ])
    func weakTokensRefused(token: String, reason: String) async throws {
        var configuration = TestFixtures.configuration()
        configuration.adminToken = token
        let error = await #expect(throws: ProviderConfigurationError.self) {
            _ = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        }
        #expect(error?.description == reason)
        #expect(AdminTokenPolicy.problem(with: "sixteen-chars-ok") == nil)
    }

    @Test("the console refuses an empty admin token (401, no session cookie), as the admin API does")
    func consoleRefusesEmpty() async throws {
        try await withProvider(KeyRotationAndAdminTests.configuration()) { client, _ in
            let browser = DialogBrowser(client: client)
            for given in ["", " "] {
                var form = FormParameters()
                form.append("admin_token", given)
                let page = try await browser.post("/_console/signin", form: form)
                #expect(page.status == .unauthorized)
                #expect(!browser.setCookieHeaders.contains { $0.hasPrefix("ll_console=") })
            }
            let api = try await client.execute(uri: "/_admin/keys", method: .get, headers: [.authorization: "Bearer "])
            #expect(api.status == .unauthorized)
        }
    }

    @Test(
        "on a real server: wrong admin tokens from one address, then 429 with Retry-After on the admin API and the console, even for the right token")
    func guessesLimited() async throws {
        var configuration = KeyRotationAndAdminTests.configuration()
        configuration.adminTokenAttemptLimits = AdminTokenAttemptLimits(perAddress: 3, window: 60)
        try await withLiveProvider(configuration) { _, client, _ in
            func keys(_ token: String) async throws -> TestResponse {
                try await client.execute(uri: "/_admin/keys", method: .get, headers: [.authorization: "Bearer \(token)"])
            }
            #expect(try await keys(KeyRotationAndAdminTests.adminToken).status == .ok, "the right token does not count")
            for attempt in 1...2 { #expect(try await keys("wrong-token-\(attempt)").status == .forbidden) }
            let browser = DialogBrowser(client: client)
            var form = FormParameters()
            form.append("admin_token", "wrong-console-guess")
            #expect(try await browser.post("/_console/signin", form: form).status == .unauthorized, "the third wrong token, at the console")

            let refused = try await keys(KeyRotationAndAdminTests.adminToken)
            #expect(refused.status == .tooManyRequests)
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int64($0) })
            #expect((1...60).contains(retryAfter))
            #expect(String(buffer: refused.body).contains(AdminController.tooManyWrongTokens(retryAfter: retryAfter)))

            var right = FormParameters()
            right.append("admin_token", KeyRotationAndAdminTests.adminToken)
            let console = try await browser.post("/_console/signin", form: right)
            #expect(console.status == .tooManyRequests)
            #expect(console.headers[.retryAfter] != nil)
            #expect(!browser.setCookieHeaders.contains { $0.hasPrefix("ll_console=") })
        }
    }

    @Test("the count is per address and ends with its window")
    func windowAndAddresses() async {
        let attempts = AdminTokenAttempts(limits: AdminTokenAttemptLimits(perAddress: 2, window: 60))
        await attempts.failed(address: "192.0.2.1", now: 1_000)
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_001) == nil)
        await attempts.failed(address: "192.0.2.1", now: 1_010)
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_020) == 40)
        #expect(await attempts.refusal(address: "192.0.2.2", now: 1_020) == nil, "another address is not held")
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_060) == nil, "the window has ended")
        await attempts.failed(address: "192.0.2.1", now: 1_061)
        #expect(await attempts.refusal(address: "192.0.2.1", now: 1_061) == nil, "a new window starts with one failure")
    }
}
