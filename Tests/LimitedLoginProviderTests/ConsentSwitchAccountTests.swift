import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #20: "Not you? Switch account" on the consent page.
@Suite("Dialog: switching account on the consent page")
struct ConsentSwitchAccountTests {
    @Test("Switch account ends this browser's session and starts the same request again at sign-in; another person then consents")
    func switchAccount() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let path = dialogPath(scope: "openid,email")
            let signIn = try await browser.get(path)
            let signedIn = try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: signIn)
            let aliceSession = try #require(browser.cookies["ll_session"])
            let consent = try await browser.get(try #require(signedIn.location))
            #expect(consent.body.contains(#"id="switch-account-button""#))
            #expect(HTMLForm.text(ofElementWithID: "user-name", in: consent.body)?.hasPrefix("Alice") == true)

            let switched = try await browser.consent(on: consent, action: "switch")
            #expect(switched.status == .seeOther)
            let again = try #require(switched.location)
            #expect(again.hasPrefix("/dialog/oauth?") && again.contains("scope=openid%2Cemail"), "\(again)")
            #expect(switched.headers[values: .setCookie].contains { $0.hasPrefix("ll_session=;") && $0.contains("Max-Age=0") }, "\(switched.headers)")
            #expect(try await provider.store.sessionUserID(secret: aliceSession) == nil, "the session is gone from the store")

            // The browser still sends the old cookie (this jar ignores the deletion): the provider no longer knows it.
            let back = try await browser.get(again)
            #expect(back.body.contains(#"id="password-form""#), "the sign-in page, not Alice's consent")
            let bob = try await browser.signIn(email: "bob@example.com", password: "bob-pass", on: back)
            let bobConsent = try await browser.get(try #require(bob.location))
            #expect(HTMLForm.text(ofElementWithID: "user-name", in: bobConsent.body)?.hasPrefix("Bob") == true)
            let done = try await browser.consent(on: bobConsent)
            let token = try #require(try done.redirectParameters().single("id_token"))
            let verified = try await verifyIDToken(token, provider: provider)
            #expect(verified.claims.email == "bob@example.com")

            // The switch spent Alice's consent form: posting it again is refused like any replay.
            let replay = try await browser.consent(on: consent, action: "switch")
            #expect(replay.status != .seeOther, "a spent consent form switched again")
        }
    }
}
