import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #23 items 5 and 8: the browser cookie is the server's own (no login CSRF through a planted
/// cookie), and every dialog form is single use (no second ID token from a replayed consent).
@Suite("Dialog forms: server-issued browser cookie, single-use tokens")
struct FormTokenTests {
    /// The value of `name` in a response's Set-Cookie headers.
    static func setCookie(_ name: String, in headers: HTTPFields) -> String? {
        for header in headers[values: .setCookie] {
            let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == Substring(name) { return String(pair[1]) }
        }
        return nil
    }

    static func send(
        _ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, cookie: String?, form: FormParameters? = nil
    ) async throws -> Page {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: form.map { ByteBuffer(string: $0.encoded) })
        return Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
    }

    /// `text` with the character at `offset` changed (to another base64url character).
    static func altered(_ text: String, at offset: Int) -> String {
        var characters = Array(text)
        characters[offset] = characters[offset] == "A" ? "B" : "A"
        return String(characters)
    }

    static func pickForm(_ page: Page, user: String) throws -> FormParameters {
        var form = FormParameters()
        form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
        form.append("request", try #require(page.hiddenInput("request")))
        form.append("user_id", user)
        return form
    }

    @Test("a planted or forged ll_browser is replaced, and a form bound to it is refused")
    func plantedBrowserCookie() async throws {
        try await withProvider { client, provider in
            // The attacker's own page: a genuine cookie and a token bound to it.
            let attackerPage = try await Self.send(client, dialogPath(), cookie: nil)
            let genuine = try #require(Self.setCookie("ll_browser", in: attackerPage.headers))
            #expect(provider.services.csrf.authenticBrowserID(genuine) == genuine)

            for planted in ["attacker-chosen-value", Self.altered(genuine, at: genuine.count - 5)] {
                let page = try await Self.send(client, dialogPath(), cookie: "ll_browser=\(planted)")
                let issued = try #require(Self.setCookie("ll_browser", in: page.headers), "the planted value \(planted) is replaced")
                #expect(issued != planted)
                #expect(provider.services.csrf.authenticBrowserID(issued) == issued)
                // The page's token is bound to the issued cookie, not the planted one.
                let withPlanted = try await Self.send(
                    client, DialogController.signInPath, method: .post, cookie: "ll_browser=\(planted)",
                    form: try Self.pickForm(page, user: TestFixtures.alice)
                )
                #expect(withPlanted.status == .forbidden)
                #expect(withPlanted.title == "This page has expired")
                #expect(Self.setCookie("ll_session", in: withPlanted.headers) == nil)
            }
            // The attacker's token does not work with a victim's own cookie.
            let victimPage = try await Self.send(client, dialogPath(), cookie: nil)
            let victimCookie = try #require(Self.setCookie("ll_browser", in: victimPage.headers))
            let crossed = try await Self.send(
                client, DialogController.signInPath, method: .post, cookie: "ll_browser=\(victimCookie)",
                form: try Self.pickForm(attackerPage, user: TestFixtures.alice)
            )
            #expect(crossed.status == .forbidden)
            let own = try await Self.send(
                client, DialogController.signInPath, method: .post, cookie: "ll_browser=\(victimCookie)",
                form: try Self.pickForm(victimPage, user: TestFixtures.alice)
            )
            #expect(own.status == .seeOther)
        }
    }

    @Test("sign-in makes a new session whatever ll_session the browser brought")
    func sessionRenewed() async throws {
        try await withProvider { client, provider in
            let page = try await Self.send(client, dialogPath(), cookie: nil)
            let browser = try #require(Self.setCookie("ll_browser", in: page.headers))
            let fixated = "fixated-session-value"
            let signedIn = try await Self.send(
                client, DialogController.signInPath, method: .post, cookie: "ll_browser=\(browser); ll_session=\(fixated)",
                form: try Self.pickForm(page, user: TestFixtures.alice)
            )
            #expect(signedIn.status == .seeOther)
            let session = try #require(Self.setCookie("ll_session", in: signedIn.headers))
            #expect(session != fixated)
            #expect(try await provider.store.sessionUserID(secret: session) == TestFixtures.alice)
            #expect(try await provider.store.sessionUserID(secret: fixated) == nil)
        }
    }

    @Test("a sign-in form posted a second time gets the already-sent page, also after a wrong password")
    func signInReplay() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let page = try await browser.get(dialogPath())
            let wrong = try await browser.signIn(email: "alice@example.com", password: "wrong", on: page)
            #expect(wrong.status == .unauthorized)
            let replayedWrong = try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: page)
            #expect(replayedWrong.status == .forbidden)
            #expect(replayedWrong.title == DialogController.formReplayed.title)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: replayedWrong.body) == DialogController.formReplayed.message)
            #expect(browser.cookies["ll_session"] == nil)

            let picked = try await browser.signIn(as: TestFixtures.alice, on: wrong)
            #expect(picked.status == .seeOther)
            let session = browser.cookies["ll_session"]
            let again = try await browser.signIn(as: TestFixtures.bob, on: wrong)
            #expect(again.status == .forbidden)
            #expect(again.title == DialogController.formReplayed.title)
            #expect(browser.cookies["ll_session"] == session, "no new session")
        }
    }

    @Test("a consent form posted again in the same session mints no second ID token")
    func consentReplay() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let signInPage = try await browser.get(dialogPath())
            let signedIn = try await browser.signIn(as: TestFixtures.alice, on: signInPage)
            let consent = try await browser.get(try #require(signedIn.location))
            let done = try await browser.consent(on: consent)
            #expect(done.status == .seeOther)
            #expect(try done.redirectParameters().single("id_token") != nil)

            let replayed = try await browser.consent(on: consent)
            #expect(replayed.status == .forbidden)
            #expect(replayed.location == nil)
            #expect(HTMLForm.text(ofElementWithID: "error-message", in: replayed.body) == DialogController.formReplayed.message)
            let cancelled = try await browser.consent(on: consent, action: "cancel")
            #expect(cancelled.status == .forbidden, "a consumed form cannot cancel either")
        }
    }

    @Test("one consent form posted twice at once: exactly one answer carries a token")
    func concurrentConsent() async throws {
        try await withProvider { client, _ in
            let browser = DialogBrowser(client: client)
            let signedIn = try await browser.signIn(as: TestFixtures.alice, on: try await browser.get(dialogPath()))
            let consent = try await browser.get(try #require(signedIn.location))
            async let first = browser.consent(on: consent)
            async let second = browser.consent(on: consent)
            let statuses = [try await first.status, try await second.status]
            #expect(statuses.sorted { $0.code < $1.code } == [.seeOther, .forbidden])
        }
    }

    @Test("form tokens: bound to purpose and binding, refused when altered, expired after an hour")
    func tokenChecks() {
        let csrf = CSRFProtection(secret: "secret-one")
        let now: Int64 = 1_700_000_000
        let token = csrf.token(for: .consent, binding: "session-a", now: now)
        guard case .valid(let hash, let expiresAt) = csrf.check(token, for: .consent, binding: "session-a", now: now + 10) else {
            Issue.record("a fresh token is valid")
            return
        }
        #expect(hash == RandomIdentifiers.storageHash(token))
        #expect(expiresAt == now + CSRFProtection.tokenLifetime)
        #expect(csrf.check(token, for: .consent, binding: "session-a", now: now + CSRFProtection.tokenLifetime) == .expired)
        #expect(csrf.check(token, for: .signIn, binding: "session-a", now: now) == .invalid)
        #expect(csrf.check(token, for: .consent, binding: "session-b", now: now) == .invalid)
        #expect(CSRFProtection(secret: "secret-two").check(token, for: .consent, binding: "session-a", now: now) == .invalid)
        #expect(csrf.check(Self.altered(token, at: 30), for: .consent, binding: "session-a", now: now) == .invalid)
        #expect(csrf.check(nil, for: .consent, binding: "session-a", now: now) == .invalid)
        #expect(csrf.check(token, for: .consent, binding: nil, now: now) == .invalid)
        #expect(csrf.token(for: .consent, binding: "session-a", now: now) != token, "each rendering gets its own token")

        let browser = csrf.newBrowserID()
        #expect(csrf.authenticBrowserID(browser) == browser)
        #expect(CSRFProtection(secret: "secret-two").authenticBrowserID(browser) == nil)
        #expect(csrf.authenticBrowserID(String(browser.dropLast())) == nil)
        #expect(csrf.authenticBrowserID(nil) == nil)
    }
}
