import Foundation
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

/// Issue #30 item 5 in the console: the minting options (user or subject, permissions, nonce or raw nonce,
/// claims, lifetime, defect, tracking) from a form, the token shown once to copy.
@Suite("Console: minting a token")
struct ConsoleMintingTests {
    @Test("a minted token is shown to copy and verifies; a subject, claims and a raw nonce are applied")
    func mint() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            _ = try await ConsoleTests.signIn(browser)
            let console = try await browser.get("/_console/tokens")
            #expect(console.body.contains(#"id="mint-form""#) && !console.body.contains(#"id="token-view""#))
            let csrf = try #require(console.hiddenInput("csrf"))
            let page = try await ConsoleTests.act(
                browser, "mint-token", csrf: csrf,
                [
                    ("app_id", TestFixtures.appID), ("user", TestFixtures.alice), ("subject", "zed-42"), ("permissions", "email"),
                    ("raw_nonce", "r-1"), ("claims", #"{"name": "Zed"}"#), ("lifetime", "120"),
                ])
            #expect(page.status == .ok, "\(page.body.prefix(400))")
            #expect(page.body.contains("A token was minted"))
            let token = try #require(Self.textarea("token-text", in: page.body))
            let keys = try await provider.services.keyring.current().keySet
            let verifier = TokenVerifier(
                configuration: VerifierConfiguration(appID: TestFixtures.appID, allowedIssuers: [provider.urls.issuer]), keys: StaticKeySet(keys)
            )
            let verified = try await verifier.verify(token, nonce: .sha256OfRawNonce("r-1"))
            #expect(verified.claims.sub == "zed-42")
            #expect(verified.claims.name == "Zed")
            #expect(verified.claims.exp.timeIntervalSince(verified.claims.iat) == 120)
            let again = try await browser.get("/_console/tokens")
            #expect(!again.body.contains(#"id="token-view""#), "the token is shown once, not kept")
        }
    }

    @Test("refusals: claims that are not an object, and the admin API's own refusals, shown on the console")
    func refusals() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let browser = DialogBrowser(client: client)
            let csrf = try #require(try await ConsoleTests.signIn(browser).hiddenInput("csrf"))
            let badClaims = try await ConsoleTests.act(
                browser, "mint-token", csrf: csrf,
                [
                    ("app_id", TestFixtures.appID), ("user", TestFixtures.alice), ("claims", "[1]"),
                ])
            #expect(badClaims.status == .badRequest)
            #expect(badClaims.body.contains("The claims must be a JSON object"))
            let badDefect = try await ConsoleTests.act(
                browser, "mint-token", csrf: csrf,
                [
                    ("app_id", TestFixtures.appID), ("user", TestFixtures.alice), ("defect", "nonsense"),
                ])
            #expect(
                badDefect.status == .badRequest && badDefect.body.contains("Unknown defect &quot;nonsense&quot;"), "\(badDefect.body.prefix(300))")
            let noCSRF = try await ConsoleTests.act(browser, "mint-token", csrf: nil, [("app_id", TestFixtures.appID), ("user", TestFixtures.alice)])
            #expect(noCSRF.status == .forbidden)
        }
    }

    /// The text of `<textarea id="ID" …>…</textarea>`, unescaped.
    static func textarea(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: "<textarea id=\"\(id)\""), let close = html[start.upperBound...].range(of: ">"),
            let end = html[close.upperBound...].range(of: "</textarea>")
        else { return nil }
        return String(html[close.upperBound..<end.lowerBound])
    }
}
