import Foundation
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

@Suite("Dialog: sign-in, consent, and the response")
struct DialogFlowTests {
    @Test("first limited login: sign-in page, consent with email unticked, then an ID token the verifier accepts")
    func firstLimitedLogin() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let path = dialogPath(scope: "openid,public_profile,email,user_birthday")
            let signInPage = try await browser.get(path)
            #expect(signInPage.status == .ok)
            #expect(signInPage.title == "Log in to Test App")
            #expect(signInPage.body.contains(#"<span class="visually-hidden">Log in as </span>Alice Q Smith"#))
            #expect(signInPage.body.contains("id=\"limited-notice\""))
            let browserCookie = try #require(browser.setCookieHeaders.first { $0.hasPrefix("ll_browser=") })
            #expect(browserCookie.contains("HttpOnly") && browserCookie.contains("SameSite=Lax") && browserCookie.contains("Path=/"))

            let signedIn = try await browser.signIn(as: TestFixtures.alice, on: signInPage)
            #expect(signedIn.status == .seeOther)
            let sessionCookie = try #require(browser.setCookieHeaders.first { $0.hasPrefix("ll_session=") })
            #expect(sessionCookie.contains("HttpOnly") && sessionCookie.contains("SameSite=Lax"))
            #expect(!sessionCookie.contains("Secure"), "plain http: no Secure attribute")

            let consentPage = try await browser.get(try #require(signedIn.location))
            #expect(consentPage.status == .ok)
            #expect(consentPage.title == "Test App is requesting access")
            #expect(consentPage.body.contains("Continue as Alice"))
            #expect(consentPage.body.contains("Your email address"))
            #expect(consentPage.body.contains("Your birthday"))
            let boxes = HTMLScraper.inputs(in: consentPage.body).filter { $0.type == "checkbox" }
            #expect(boxes.map(\.value) == ["public_profile", "email", "user_birthday"])
            #expect(boxes.first?.disabled == true, "public_profile cannot be unticked")

            let done = try await browser.consent(on: consentPage, ticking: ["user_birthday"])
            #expect(done.status == .seeOther)
            #expect(try #require(done.location).hasPrefix(TestFixtures.registeredRedirect + "#"))
            let response = try done.redirectParameters()
            #expect(response.pairs.map(\.name) == ["id_token", "user_token_nonce", "state", "granted_scopes", "denied_scopes", "graph_domain"])
            #expect(try response.single("state") == "state-xyz")
            #expect(try response.single("granted_scopes") == "openid,public_profile,user_birthday")
            #expect(try response.single("denied_scopes") == "email")
            #expect(try response.single("graph_domain") == "facebook")

            let token = try await verifyIDToken(try #require(try response.single("id_token")), provider: provider)
            let claims = token.claims
            #expect(claims.nonce == "nonce-123")
            #expect(claims.aud == TestFixtures.appID)
            #expect(claims.iss == "http://provider.test")
            #expect(claims.exp.timeIntervalSince(claims.iat) == 3600)
            #expect(claims.name == "Alice Q Smith" && claims.givenName == "Alice" && claims.middleName == "Q" && claims.familyName == "Smith")
            #expect(claims.email == nil, "email was declined")
            #expect(claims.userBirthday == "04/22/1990")
            #expect(token.header["kid"] == .string(try await provider.services.keyring.current().signer.keyID))
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            #expect(claims.sub == asid && asid != TestFixtures.alice)
            #expect(claims.picture == "http://provider.test/v21.0/\(asid)/picture")
        }
    }

    @Test("every limited claim is issued when every limited permission is granted")
    func everyLimitedClaim() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let scope = "openid,public_profile,email,user_friends,user_birthday,user_age_range,user_gender,user_hometown,user_location,user_link"
            let done = try await browser.logIn(dialogPath(scope: scope), as: TestFixtures.alice)
            let token = try await verifyIDToken(try #require(try done.redirectParameters().single("id_token")), provider: provider)
            let claims = token.claims
            #expect(claims.email == "alice@example.com")
            #expect(claims.userGender == "female")
            #expect(claims.userLink == "https://example.com/alice")
            #expect(claims.userHometown == Location(id: "501", name: "Paris"))
            #expect(claims.userLocation == Location(id: "502", name: "Lyon"))
            #expect(claims.userAgeRange == UserAgeRange(min: 21, max: nil))
            #expect(claims.userFriends == [], "no friend has the app installed yet")
            #expect(token.payload["at_hash"] == nil, "no access token in a limited login")
        }
    }

    @Test("a repeat login with a covered scope skips consent; auth_type=rerequest shows it again")
    func consentSkippedOnRepeat() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let first = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            #expect(first.status == .seeOther)
            let firstToken = try #require(try first.redirectParameters().single("id_token"))

            let second = try await browser.get(dialogPath(nonce: "second-nonce"))
            #expect(second.status == .found, "no page: straight back to the app")
            let secondToken = try #require(try second.redirectParameters().single("id_token"))
            #expect(secondToken != firstToken)
            let verified = try await verifyIDToken(secondToken, provider: provider, nonce: "second-nonce")
            #expect(verified.claims.nonce == "second-nonce")

            let again = try await browser.get(dialogPath(extra: [("auth_type", "rerequest")]))
            #expect(again.status == .ok)
            #expect(again.body.contains("id=\"consent-form\""))
        }
    }

    @Test("a permission declined earlier is not asked again without rerequest, and rerequest can grant it")
    func declinedThenRerequested() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let first = try await browser.logIn(dialogPath(), as: TestFixtures.alice, ticking: [])
            #expect(try first.redirectParameters().single("denied_scopes") == "email")
            let repeatLogin = try await browser.get(dialogPath())
            #expect(repeatLogin.status == .found)
            #expect(try repeatLogin.redirectParameters().single("denied_scopes") == "email")

            let consent = try await browser.get(dialogPath(extra: [("auth_type", "rerequest")]))
            let granted = try await browser.consent(on: consent, ticking: ["email"])
            let parameters = try granted.redirectParameters()
            #expect(try parameters.single("granted_scopes") == "email,openid,public_profile")
            #expect(try parameters.single("denied_scopes") == "")
            let token = try await verifyIDToken(try #require(try parameters.single("id_token")), provider: provider)
            #expect(token.claims.email == "alice@example.com")
        }
    }

    @Test("Cancel sends exactly the cancel response, with no error_message")
    func cancel() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let signInPage = try await browser.get(dialogPath())
            let signedIn = try await browser.signIn(as: TestFixtures.bob, on: signInPage)
            let consent = try await browser.get(try #require(signedIn.location))
            let cancelled = try await browser.consent(on: consent, action: "cancel")
            #expect(cancelled.status == .seeOther)
            #expect(
                cancelled.location == TestFixtures.registeredRedirect
                    + "#error=access_denied&error_code=200&error_description=Permissions+error&error_reason=user_denied&state=state-xyz")
        }
    }

    @Test("email and password sign in; a wrong password shows the sign-in page again with an error")
    func passwordSignIn() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let signInPage = try await browser.get(dialogPath())
            let wrong = try await browser.signIn(email: "alice@example.com", password: "nope", on: signInPage)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.body.contains("The email or password you entered is incorrect."))
            #expect(wrong.body.contains("value=\"alice@example.com\""), "the email is kept")
            #expect(browser.cookies["ll_session"] == nil)
            // Each form is single use: every answer page carries the next one.
            let unknown = try await browser.signIn(email: "nobody@example.com", password: "alice-pass", on: wrong)
            #expect(unknown.status == .unauthorized)

            let right = try await browser.signIn(email: "ALICE@example.com", password: "alice-pass", on: unknown)
            #expect(right.status == .seeOther)
            #expect(browser.cookies["ll_session"] != nil)
            let consent = try await browser.get(try #require(right.location))
            #expect(consent.body.contains("Continue as Alice"))
        }
    }

    @Test("a wrong or missing CSRF token on either form is refused with the expired-page error, changing nothing")
    func csrf() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let signInPage = try await browser.get(dialogPath())
            var form = FormParameters()
            form.append("csrf_token", "forged")
            form.append("request", try #require(signInPage.hiddenInput("request")))
            form.append("user_id", TestFixtures.alice)
            let refused = try await browser.post(DialogController.signInPath, form: form)
            #expect(refused.status == .forbidden)
            #expect(refused.title == "This page has expired")
            #expect(browser.cookies["ll_session"] == nil)

            // A sign-in token from another browser does not work in this one.
            let other = DialogBrowser(client: client)
            let otherPage = try await other.get(dialogPath())
            let crossed = try await browser.signIn(as: TestFixtures.alice, on: otherPage)
            #expect(crossed.status == .forbidden)

            let signedIn = try await browser.signIn(as: TestFixtures.alice, on: signInPage)
            let consent = try await browser.get(try #require(signedIn.location))
            var consentForm = FormParameters()
            consentForm.append("request", try #require(consent.hiddenInput("request")))
            consentForm.append("action", "continue")
            let noToken = try await browser.post(DialogController.confirmPath, form: consentForm)
            #expect(noToken.status == .forbidden)
            #expect(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice) == nil)

            // The sign-in token is not a consent token.
            consentForm.append("csrf_token", try #require(signInPage.hiddenInput("csrf_token")))
            let wrongPurpose = try await browser.post(DialogController.confirmPath, form: consentForm)
            #expect(wrongPurpose.status == .forbidden)

            // The consent page's token consents to the request it was shown for, not to another one (here a request
            // with another scope and nonce, whose consent page this person never saw).
            var otherRequest = FormParameters()
            let shown = try #require(consent.hiddenInput("request"))
            let swappedRequest = shown.replacingOccurrences(of: "nonce=nonce-123", with: "nonce=another-nonce")
                .replacingOccurrences(of: "scope=openid%2Cpublic_profile%2Cemail", with: "scope=openid%2Cpublic_profile%2Cemail%2Cuser_friends")
            #expect(swappedRequest != shown, "\(shown)")
            otherRequest.append("csrf_token", try #require(consent.hiddenInput("csrf_token")))
            otherRequest.append("request", swappedRequest)
            otherRequest.append("action", "continue")
            let swapped = try await browser.post(DialogController.confirmPath, form: otherRequest)
            #expect(swapped.status == .forbidden, "\(swapped.status) \(swapped.location ?? "")")
            #expect(swapped.location == nil, "no redirect carries a token")
            #expect(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice) == nil)
        }
    }

    @Test("response_mode=query puts the response in the query, form_post in a self-posting form")
    func responseModes() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let query = try await browser.logIn(dialogPath(extra: [("response_mode", "query")]), as: TestFixtures.alice)
            #expect(try #require(query.location).hasPrefix(TestFixtures.registeredRedirect + "?id_token="))
            let parameters = try query.redirectParameters(mode: .query)
            _ = try await verifyIDToken(try #require(try parameters.single("id_token")), provider: provider)

            let post = try await browser.get(dialogPath(extra: [("response_mode", "form_post")]))
            #expect(post.status == .ok)
            #expect(post.body.contains("<form method=\"post\" action=\"\(TestFixtures.registeredRedirect)\" id=\"response-form\">"))
            let token = try #require(post.hiddenInput("id_token"))
            _ = try await verifyIDToken(token, provider: provider)
            #expect(post.hiddenInput("state") == "state-xyz")
            let policy = try #require(post.headers[.init("Content-Security-Policy")!])
            #expect(policy.contains("form-action \(TestFixtures.registeredRedirect)"))
            // As every page: no frame holds it and no <base> moves its links; the page's own script loads beside
            // the inline submit its nonce allows.
            for directive in ["frame-ancestors 'none'", "base-uri 'none'", "script-src 'self' 'nonce-"] {
                #expect(policy.contains(directive), "\(policy)")
            }
        }
    }

    /// Alice's form_post answer to `redirect`, its Content-Security-Policy and that policy's directives.
    func formPost(to redirect: String, _ client: any TestClientProtocol) async throws -> (post: Page, policy: String, directives: [String]) {
        let browser = DialogBrowser(client: client)
        let post = try await browser.logIn(dialogPath(redirectURI: redirect, extra: [("response_mode", "form_post")]), as: TestFixtures.alice)
        #expect(post.status == .ok, "\(post.body.prefix(300))")
        let policy = try #require(post.headers[.init("Content-Security-Policy")!])
        return (post, policy, policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test("a ; or , in a loopback redirect URI cannot add directives to the form_post page's Content-Security-Policy")
    func formPostPolicyInjection() async throws {
        try await withProvider { client, _ in
            let (_, policy, directives) = try await formPost(to: "http://127.0.0.1:5000/cb;script-src-elem%20*,x?a=1;b", client)
            #expect(directives.count == 7, "\(policy)")
            #expect(directives.last == "form-action http://127.0.0.1:5000/cb%3Bscript-src-elem%20*%2Cx", "\(policy)")
            #expect(!policy.contains("script-src-elem *"))
        }
    }

    @Test("behind HTTPS (an https public URL) both dialog cookies are Secure, HttpOnly and SameSite=Lax")
    func secureCookiesBehindHTTPS() async throws {
        try await withProvider(TestFixtures.configuration(publicBaseURL: "https://provider.test")) { client, _ in
            let browser = DialogBrowser(client: client)
            let signInPage = try await browser.get(dialogPath())
            #expect(signInPage.status == .ok)
            _ = try await browser.signIn(as: TestFixtures.alice, on: signInPage)
            for name in ["ll_browser=", "ll_session="] {
                let cookie = try #require(browser.setCookieHeaders.first { $0.hasPrefix(name) }, "\(name) \(browser.setCookieHeaders)")
                #expect(cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "\(cookie)")
            }
        }
    }

    @Test("form_post to an IPv6 loopback redirect: form-action is the scheme (a CSP host source cannot hold [::1])")
    func formPostIPv6Loopback() async throws {
        try await withProvider { client, _ in
            let redirect = "http://[::1]:8000/cb"
            let (post, policy, directives) = try await formPost(to: redirect, client)
            #expect(post.body.contains("action=\"\(redirect)\""))
            #expect(directives.last == "form-action http:", "\(policy)")
        }
    }

    @Test("the dialog answers with and without the version segment, and not for a malformed version")
    func versionSegment() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let plain = try await browser.get(dialogPath(version: nil))
            #expect(plain.status == .ok)
            let old = try await browser.get(dialogPath(version: "v2.12"))
            #expect(old.status == .ok)
            let bad = try await browser.get(dialogPath(version: "latest"))
            #expect(bad.status == .notFound)
        }
    }

    @Test("loopback and fb{appID}:// redirect URIs are allowed without registration")
    func alwaysAllowedRedirects() async throws {
        try await withProvider { client, provider in
            let browser = DialogBrowser(client: client)
            let loopback = try await browser.logIn(dialogPath(redirectURI: "http://127.0.0.1:53123/callback"), as: TestFixtures.alice)
            #expect(try #require(loopback.location).hasPrefix("http://127.0.0.1:53123/callback#id_token="))
            let ipv6 = try await browser.get(dialogPath(redirectURI: "http://[::1]:8000/cb?x=1"))
            #expect(try #require(ipv6.location).hasPrefix("http://[::1]:8000/cb?x=1#id_token="))
            let custom = try await browser.get(dialogPath(redirectURI: "fb\(TestFixtures.appID)://authorize/"))
            let token = try #require(try custom.redirectParameters().single("id_token"))
            #expect(try #require(custom.location).hasPrefix("fb\(TestFixtures.appID)://authorize/#id_token="))
            _ = try await verifyIDToken(token, provider: provider)
        }
    }
}
