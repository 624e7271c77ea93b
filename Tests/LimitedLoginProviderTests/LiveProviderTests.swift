import Foundation
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

@Suite("A real provider on loopback, on a SQLite file")
struct LiveProviderTests {
    @Test("tokens pass the project's verifier through the provider's own discovery URL")
    func verifierThroughDiscovery() async throws {
        let configuration = TestFixtures.configuration(store: .sqliteFile(path: temporaryDatabasePath()), publicBaseURL: nil)
        try await withLiveProvider(configuration) { baseURL, client, provider in
            #expect(provider.urls.issuer == baseURL)
            let verifier = try await TokenVerifier.provider(
                discoveryURL: try #require(URL(string: baseURL + "/.well-known/openid-configuration")), appID: TestFixtures.appID
            )
            let browser = DialogBrowser(client: client)
            for (user, nonce) in [(TestFixtures.alice, "n-alice"), (TestFixtures.bob, "n-bob")] {
                let person = DialogBrowser(client: client)
                let page = try await person.logIn(dialogPath(scope: "openid,email,user_friends", nonce: nonce), as: user)
                let token = try #require(try page.redirectParameters().single("id_token"))
                let verified = try await verifier.verify(token, nonce: .exact(nonce))
                #expect(verified.claims.iss == baseURL)
                #expect(verified.claims.email == (user == TestFixtures.alice ? "alice@example.com" : "bob@example.com"))
                do {
                    _ = try await verifier.verify(token, nonce: .exact("other"))
                    Issue.record("a wrong nonce was accepted")
                } catch let error as TokenVerificationError {
                    #expect(error == .nonceMismatch)
                }
            }
            _ = browser
        }
    }

    @Test("a provider restarted on the same SQLite file keeps its key, apps, users, grants and ASIDs")
    func restartKeepsState() async throws {
        let path = temporaryDatabasePath()
        var configuration = TestFixtures.configuration(store: .sqliteFile(path: path), publicBaseURL: nil)
        // The default issuer is the base URL, whose port changes between the two runs.
        configuration.issuer = "https://issuer.test"
        let first = try await withLiveProvider(configuration) { _, client, provider in
            let page = try await DialogBrowser(client: client).logIn(dialogPath(), as: TestFixtures.alice)
            let token = try #require(try page.redirectParameters().single("id_token"))
            let claims = try await verifyIDToken(token, provider: provider).claims
            return (keyID: try await provider.services.keyring.current().signer.keyID, asid: claims.sub, token: token)
        }
        // No fixtures the second time: everything must come from the file.
        configuration.fixtures = nil
        try await withLiveProvider(configuration) { _, client, provider in
            #expect(try await provider.services.keyring.current().signer.keyID == first.keyID)
            #expect(try await provider.store.app(id: TestFixtures.appID)?.name == "Test App")
            #expect(try await provider.store.users().count == 3)
            let grant = try #require(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice))
            #expect(grant.installed && grant.granted.contains(.email))
            #expect(try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice) == first.asid)
            // The old token still verifies, and a repeat login (password this time) skips consent.
            _ = try await verifyIDToken(first.token, provider: provider)
            let browser = DialogBrowser(client: client)
            let signIn = try await browser.get(dialogPath())
            let signedIn = try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: signIn)
            let again = try await browser.get(try #require(signedIn.location))
            #expect(again.status == .found)
            let againToken = try #require(try again.redirectParameters().single("id_token"))
            #expect(try await verifyIDToken(againToken, provider: provider).claims.sub == first.asid)
        }
    }

    @Test("the home page lists the apps, the users and the provider's URLs")
    func homePage() async throws {
        try await withLiveProvider(TestFixtures.configuration(publicBaseURL: nil)) { baseURL, client, _ in
            let page = try await DialogBrowser(client: client).get("/")
            #expect(page.status == .ok)
            #expect(page.body.contains("<code id=\"base-url\">\(baseURL)</code>"))
            #expect(page.body.contains("Test App") && page.body.contains("Other App"))
            #expect(
                page.body.contains(#"<td data-label="Email">alice@example.com</td><td data-label="ID"><code>\#(TestFixtures.alice)</code></td>"#),
                "user IDs on the home page")
            #expect(page.body.contains("alice@example.com"))
            #expect(page.body.contains(HTMLEscaping.escape("\(baseURL)/v21.0/dialog/oauth?client_id=\(TestFixtures.appID)")))
        }
    }

    @Test("the demo dialog URL ends on the provider's own page, which shows the response and the decoded claims")
    func demoDialogURL() async throws {
        try await withLiveProvider(TestFixtures.configuration(publicBaseURL: nil)) { baseURL, client, provider in
            let url = provider.urls.limitedDialogURL(appID: TestFixtures.appID)
            #expect(url.contains("redirect_uri=\(FormParameters.encode(baseURL + "/demo/callback"))&response_mode=form_post"))
            let browser = DialogBrowser(client: client)
            let posting = try await browser.logIn(String(url.dropFirst(baseURL.count)), as: TestFixtures.alice)
            #expect(posting.status == .ok)
            #expect(posting.body.contains("action=\"\(baseURL)/demo/callback\""))
            var form = FormParameters()
            for input in HTMLScraper.inputs(in: posting.body) where input.type == "hidden" {
                form.append(input.name, input.value)
            }
            let shown = try await browser.post("/demo/callback", form: form)
            #expect(shown.status == .ok)
            #expect(shown.title == "Login complete")
            #expect(shown.body.contains("&quot;nonce&quot;: &quot;demo-nonce&quot;"))
            #expect(shown.body.contains("&quot;email&quot;: &quot;alice@example.com&quot;"))
        }
    }
}
