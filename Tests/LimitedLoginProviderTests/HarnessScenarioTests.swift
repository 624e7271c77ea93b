import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Harness: scenarios queued for the next dialogs")
struct HarnessScenarioTests {
    @Test("cancel, error and claims are each used once, in order, by the next dialogs for the app")
    func queuedInOrder() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let app = TestFixtures.appID
            #expect(try await admin(client, "/_admin/scenarios", method: .post, json: #"{"app_id":"\#(app)","outcome":"cancel"}"#).status == .created)
            _ = try await admin(
                client, "/_admin/scenarios", method: .post,
                json: #"{"app_id":"\#(app)","outcome":"error","code":2,"message":"Service temporarily unavailable"}"#)
            _ = try await admin(
                client, "/_admin/scenarios", method: .post,
                json:
                    #"{"app_id":"\#(app)","outcome":"claims","claims":{"email":"other@example.com","name":"Zed Zero","user_age_range":{"min":13,"max":17}}}"#
            )
            let listed = try await admin(client, "/_admin/scenarios")
            #expect(listed.object["scenarios"]?.arrayValue?.compactMap { $0.objectValue?["outcome"]?.stringValue } == ["cancel", "error", "claims"])

            let browser = DialogBrowser(client: client)
            let cancelled = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let cancel = try cancelled.redirectParameters()
            #expect(try cancel.single("error") == "access_denied" && cancel.single("error_reason") == "user_denied")
            #expect(try cancel.single("error_message") == nil, "a cancel has no error_message, so SDKs read it as a cancel")
            #expect(try cancel.single("state") == "state-xyz")

            let failed = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let error = try failed.redirectParameters()
            #expect(try error.single("error") == "server_error" && error.single("error_code") == "2")
            #expect(try error.single("error_message") == "Service temporarily unavailable")

            let succeeded = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let token = try #require(try succeeded.redirectParameters().single("id_token"))
            let verified = try await verifyIDToken(token, provider: provider)
            #expect(verified.claims.email == "other@example.com" && verified.claims.name == "Zed Zero")
            #expect(verified.claims.userAgeRange == UserAgeRange(min: 13, max: 17))

            let plain = try await browser.logIn(dialogPath(), as: TestFixtures.alice)
            let again = try await verifyIDToken(try #require(try plain.redirectParameters().single("id_token")), provider: provider)
            #expect(again.claims.email == "alice@example.com", "each scenario is used once")
            #expect(try await admin(client, "/_admin/scenarios").object["scenarios"] == .array([]))
        }
    }

    @Test("a scenario for one person waits for that person; another app's dialogs leave it alone")
    func forOnePerson() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            _ = try await admin(
                client, "/_admin/scenarios", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"bob@example.com","outcome":"cancel"}"#)
            let alice = try await DialogBrowser(client: client).logIn(dialogPath(), as: TestFixtures.alice)
            #expect(try alice.redirectParameters().single("id_token") != nil, "alice is not bob")
            let other = try await DialogBrowser(client: client).logIn(
                dialogPath(appID: TestFixtures.otherAppID, redirectURI: "http://127.0.0.1:7000/cb"), as: TestFixtures.bob
            )
            #expect(try other.redirectParameters().single("id_token") != nil, "another app")
            let bob = try await DialogBrowser(client: client).logIn(dialogPath(), as: TestFixtures.bob)
            #expect(try bob.redirectParameters().single("error") == "access_denied")
        }
    }

    @Test("DELETE clears every scenario, or one app's")
    func clear() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            for app in [TestFixtures.appID, TestFixtures.otherAppID, TestFixtures.appID] {
                _ = try await admin(client, "/_admin/scenarios", method: .post, json: #"{"app_id":"\#(app)","outcome":"cancel"}"#)
            }
            let one = try await admin(client, "/_admin/scenarios?app_id=\(TestFixtures.otherAppID)", method: .delete)
            #expect(one.object["removed"] == 1)
            let rest = try await admin(client, "/_admin/scenarios", method: .delete)
            #expect(rest.object["removed"] == 2)
        }
    }

    @Test("bad scenarios are refused with the exact error")
    func refusals() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let app = TestFixtures.appID
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"outcome":"cancel"}"#, .badRequest, "Give \"app_id\": the app whose next dialog the scenario decides."),
                (#"{"app_id":"999","outcome":"cancel"}"#, .notFound, "No app with ID 999."),
                (
                    #"{"app_id":"\#(app)","user":"nobody@example.com","outcome":"cancel"}"#, .notFound,
                    "No test user nobody@example.com (give an ID or an email)."
                ),
                (#"{"app_id":"\#(app)"}"#, .badRequest, "Give \"outcome\": cancel, error or claims."),
                (#"{"app_id":"\#(app)","outcome":"explode"}"#, .badRequest, "Unknown outcome \"explode\"; use cancel, error or claims."),
                (#"{"app_id":"\#(app)","outcome":"error"}"#, .badRequest, "An error scenario needs a non-empty \"message\"."),
                (
                    #"{"app_id":"\#(app)","outcome":"error","message":"x","code":1.5}"#, .badRequest,
                    "\"code\" must be a whole number (the error_code the app receives)."
                ),
                (
                    #"{"app_id":"\#(app)","outcome":"claims","claims":{}}"#, .badRequest,
                    "A claims scenario needs a non-empty \"claims\" object, e.g. {\"email\":\"x@example.com\"}."
                ),
                (
                    #"{"app_id":"\#(app)","outcome":"claims","claims":{"email":"a@b.c","aud":"1"}}"#, .badRequest,
                    "The claim \"aud\" cannot be replaced by a scenario; mint a wrong token with a defect instead (POST /_admin/tokens)."
                ),
            ]
            for (body, status, message) in cases {
                let reply = try await admin(client, "/_admin/scenarios", method: .post, json: body)
                #expect(reply.status == status, "\(body)")
                #expect(reply.message == message, "\(body)")
            }
            #expect(try await admin(client, "/_admin/scenarios").object["scenarios"] == .array([]), "nothing was queued")
        }
    }
}
