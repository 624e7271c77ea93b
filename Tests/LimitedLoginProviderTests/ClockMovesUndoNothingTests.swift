import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #36 item 3: a clock moved forward and back undoes nothing. A used form stays used whatever the time
/// (its record is kept until it has expired at a time the clock cannot go back past, and a form older than
/// what was forgotten is refused as expired); failures counted in a window that begins after the provider's
/// time (counted before the clock went back) count nothing.
@Suite("Clock moves undo nothing: single-use forms, sign-in windows")
struct ClockMovesUndoNothingTests {
    static func clock(_ client: any TestClientProtocol, _ json: String) async throws {
        let reply = try await admin(client, "/_admin/clock", method: .post, json: json)
        #expect(reply.status == .ok, "clock \(json): \(reply.message ?? "")")
    }

    /// Alice's consent page, signed in, in a browser of her own.
    static func consentPage(_ client: any TestClientProtocol) async throws -> (DialogBrowser, Page) {
        let browser = DialogBrowser(client: client)
        let signedIn = try await browser.signIn(as: TestFixtures.alice, on: try await browser.get(dialogPath()))
        let page = try await browser.get(try #require(signedIn.location))
        #expect(page.body.contains(#"id="consent-form""#), "\(page.body.prefix(300))")
        return (browser, page)
    }

    /// Any form post, so that the provider purges used forms at the time it shows.
    static func postAForm(_ client: any TestClientProtocol) async throws {
        let other = DialogBrowser(client: client)
        _ = try await other.signIn(email: "nobody@example.com", password: "x", on: try await other.get(dialogPath()))
    }

    @Test("forward then back: a used consent form is refused as already sent, and mints no second token")
    func forwardThenBack() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let (browser, consent) = try await Self.consentPage(client)
            let first = try await browser.consent(on: consent)
            #expect(first.status == .seeOther && first.location?.contains("id_token=") == true)
            try await Self.clock(client, #"{"advance": 7200}"#)
            try await Self.postAForm(client)
            try await Self.clock(client, #"{"reset": true}"#)
            let again = try await browser.consent(on: consent)
            #expect(again.status == .forbidden, "\(again.status) \(again.location ?? "")")
            #expect(again.body.contains("This form was already sent"))
        }
    }

    @Test("behind the system's time: a used form whose record was forgotten is refused as expired, never taken")
    func behindTheSystemsTime() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            try await Self.clock(client, #"{"advance": -10800, "force": true}"#)
            let (browser, consent) = try await Self.consentPage(client)
            #expect(try await browser.consent(on: consent).status == .seeOther)
            // Back to the system's time: the form (expired there) is forgotten at the next form post.
            try await Self.clock(client, #"{"reset": true}"#)
            try await Self.postAForm(client)
            // Back again to where the form was fresh.
            try await Self.clock(client, #"{"advance": -10800, "force": true}"#)
            let again = try await browser.consent(on: consent)
            #expect(again.status != .seeOther, "a used form was taken again")
            #expect(
                again.body.contains(DialogController.formExpired.message) || again.body.contains("This form was already sent"),
                "\(again.body.prefix(300))")
        }
    }

    @Test("failures counted a day ahead do not lock the address or the account once the clock is back")
    func signInWindowAfterTheClockWentBack() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            try await Self.clock(client, #"{"advance": 86400}"#)
            let browser = DialogBrowser(client: client)
            var page = try await browser.get(dialogPath())
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<11 {
                page = try await browser.signIn(email: "alice@example.com", password: "wrong", on: page)
                statuses.append(page.status)
            }
            #expect(statuses.last == .tooManyRequests, "\(statuses)")
            try await Self.clock(client, #"{"reset": true}"#)
            let fresh = DialogBrowser(client: client)
            let signedIn = try await fresh.signIn(email: "alice@example.com", password: "alice-pass", on: try await fresh.get(dialogPath()))
            #expect(signedIn.status == .seeOther, "\(signedIn.status): \(signedIn.body.prefix(200))")
        }
    }
}
