import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Synchronization
import Testing

@testable import LimitedLoginProvider

/// Issue #33: the apps' Deauthorize and Data Deletion Request callbacks, posted to a real receiver on
/// loopback that checks each `signed_request` with the app secret, retried on failure, each delivery in
/// `GET /_admin/deliveries` with its outcome.
@Suite("App callbacks: deauthorize and data deletion")
struct CallbackDeliveryTests {
    /// What the receiver got: the form bodies, in order.
    final class Received: Sendable {
        let bodies = Mutex<[String]>([])
        var all: [String] { bodies.withLock { $0 } }
    }

    /// A receiver at `/callback` answering each post with the next of `answers` (the last one repeats).
    func withReceiver(
        answers: [(HTTPResponse.Status, String)], _ body: @Sendable (_ url: String, _ received: Received) async throws -> Void
    ) async throws {
        let received = Received()
        let router = Router()
        router.post("/callback") { request, _ -> Response in
            let text = String(buffer: try await request.body.collect(upTo: 1 << 16))
            let index = received.bodies.withLock { bodies in
                bodies.append(text)
                return bodies.count - 1
            }
            let (status, answer) = answers[min(index, answers.count - 1)]
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        try await withLoopbackServer(router) { port in try await body("http://127.0.0.1:\(port)/callback", received) }
    }

    func configuration() -> ProviderConfiguration {
        var configuration = harnessConfiguration()
        configuration.callbackRetryDelays = [.milliseconds(50), .milliseconds(50), .milliseconds(50)]
        configuration.callbackAttemptTimeout = .seconds(5)
        return configuration
    }

    /// The payload of a form body's `signed_request`, after checking its signature with the app secret as an
    /// app's server does: `base64url(HMAC-SHA256(payload segment, secret)) "." payload segment`.
    func verifiedPayload(_ form: String, secret: String = TestFixtures.appSecret) throws -> JSONObject {
        let signedRequest = try #require(try FormParameters(encoded: form).single("signed_request"))
        let parts = signedRequest.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 2)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(parts[1].utf8), using: SymmetricKey(data: Array(secret.utf8)))
        #expect(Base64URL.encode(Array(mac)) == parts[0], "the signature is the HMAC of the payload with the app secret")
        return try #require(try StrictJSONParser().parse(try Base64URL.decode(parts[1])).objectValue)
    }

    /// The delivery once it is no longer pending (at most 60 s).
    func settled(_ client: any TestClientProtocol) async throws -> JSONObject {
        for _ in 0..<1200 {
            let list = try await admin(client, "/_admin/deliveries")
            let first = try #require(list.object["deliveries"]?.arrayValue?.first?.objectValue, "no delivery: \(list.object)")
            if first["status"] != "pending" { return first }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the delivery stayed pending")
        return [:]
    }

    func setCallbacks(_ client: any TestClientProtocol, deauthorize: String? = nil, dataDeletion: String? = nil) async throws {
        var body: JSONObject = [:]
        if let deauthorize { body["deauthorize_callback_url"] = .string(deauthorize) }
        if let dataDeletion { body["data_deletion_callback_url"] = .string(dataDeletion) }
        let reply = try await admin(
            client, "/_admin/apps/\(TestFixtures.appID)", method: .post,
            json: String(decoding: JSONSerializer.serialize(.object(body)), as: UTF8.self))
        try #require(reply.status == .ok, "\(reply.object)")
    }

    @Test("removing the app through the Graph API posts a signed_request the app secret verifies, with the app-scoped user_id")
    func deauthorizeOnGraphRemoval() async throws {
        try await withReceiver(answers: [(.ok, "{}")]) { url, received in
            try await withProvider(configuration()) { client, provider in
                try await setCallbacks(client, deauthorize: url)
                let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                let removed = try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)", method: .delete)
                #expect(removed.object == ["success": true])
                let delivery = try await settled(client)
                #expect(delivery["status"] == "delivered" && delivery["attempts"] == 1 && delivery["kind"] == "deauthorize")
                #expect(delivery["response_status"] == 200 && delivery["url"] == .string(url))
                let payload = try verifiedPayload(try #require(received.all.first))
                #expect(payload["algorithm"] == "HMAC-SHA256")
                let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
                #expect(payload["user_id"] == .string(asid))
                #expect(payload["issued_at"]?.numberValue != nil)
                #expect(received.all.count == 1)
            }
        }
    }

    @Test("ten removals at once end the installation once: one deauthorize callback posted")
    func concurrentUninstallsPostOnce() async throws {
        try await withReceiver(answers: [(.ok, "{}")]) { url, received in
            try await withProvider(configuration()) { client, provider in
                try await setCallbacks(client, deauthorize: url)
                let tokens = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            try await graph(client, "/v21.0/me/permissions?access_token=\(tokens.access)", method: .delete).status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.contains(.ok), "\(statuses)")
                _ = try await settled(client)
                let deliveries = try await admin(client, "/_admin/deliveries").object["deliveries"]?.arrayValue ?? []
                #expect(deliveries.count == 1, "\(deliveries)")
                #expect(received.all.count == 1)
                #expect(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice)?.installed == false)

                // The store itself, fifty at once after a new login: exactly one ends the installation.
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                let ended = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<50 {
                        group.addTask { try await provider.store.uninstall(appID: TestFixtures.appID, userID: TestFixtures.alice) }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(ended == 1)
            }
        }
    }

    @Test("an app that answers 500 twice is posted to again and delivered on the third attempt; the admin API's uninstall posts too")
    func retriedUntilDelivered() async throws {
        try await withReceiver(answers: [(.internalServerError, "no"), (.internalServerError, "no"), (.ok, "")]) { url, received in
            try await withProvider(configuration()) { client, _ in
                try await setCallbacks(client, deauthorize: url)
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                // On the provider's clock, moved two hours ahead: every time the delivery records.
                #expect(try await admin(client, "/_admin/clock", method: .post, json: #"{"advance": 7200}"#).status == .ok)
                #expect(try await admin(client, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)", method: .delete).status == .ok)
                let delivery = try await settled(client)
                #expect(delivery["status"] == "delivered" && delivery["attempts"] == 3, "\(delivery)")
                let created = try #require(delivery["created_at"]?.numberValue)
                let updated = try #require(delivery["updated_at"]?.numberValue)
                #expect(created >= Double(ProviderTime.systemNow() + 7000) && updated >= created, "\(delivery)")
                #expect(received.all.count == 3)
                #expect(Set(received.all).count == 1, "each attempt posts the same signed_request")
            }
        }
    }

    @Test("a callback URL nothing listens on: tried once and after each delay, then failed with the reason; kept in the list")
    func downURLFails() async throws {
        // A port that was free a moment ago: nothing listens on it.
        let port = try await withLoopbackServer(Router()) { $0 }
        try await withProvider(configuration()) { client, _ in
            try await setCallbacks(client, deauthorize: "http://127.0.0.1:\(port)/gone")
            _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            #expect(try await admin(client, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)", method: .delete).status == .ok)
            let delivery = try await settled(client)
            #expect(delivery["status"] == "failed" && delivery["attempts"] == 4, "\(delivery)")
            #expect(delivery["last_error"] == .string(CallbackDeliverer.noAnswer), "one reason, whatever the port did: \(delivery)")
            #expect(delivery["response_status"] == nil)
        }
    }

    @Test("a data deletion request posts to the app's URL and records its url and confirmation_code; an answer without them fails")
    func dataDeletion() async throws {
        try await withReceiver(answers: [(.ok, #"{"url": "https://app.example/deletion?id=abc123", "confirmation_code": "abc123"}"#)]) {
            url, received in
            try await withProvider(configuration()) { client, provider in
                try await setCallbacks(client, dataDeletion: url)
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                let requested = try await admin(
                    client, "/_admin/apps/\(TestFixtures.appID)/data-deletion", method: .post, json: #"{"user_id": "alice@example.com"}"#)
                #expect(requested.status == .accepted && requested.object["kind"] == "data_deletion", "\(requested.object)")
                let delivery = try await settled(client)
                #expect(delivery["status"] == "delivered" && delivery["confirmation_code"] == "abc123")
                #expect(delivery["status_url"] == "https://app.example/deletion?id=abc123")
                let payload = try verifiedPayload(try #require(received.all.first))
                #expect(payload["user_id"] == .string(try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)))
            }
        }
        try await withReceiver(answers: [(.ok, "thanks")]) { url, received in
            try await withProvider(configuration()) { client, _ in
                try await setCallbacks(client, dataDeletion: url)
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                _ = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/data-deletion", method: .post, json: #"{"user_id": "100001"}"#)
                let delivery = try await settled(client)
                #expect(delivery["status"] == "failed" && delivery["attempts"] == 4)
                #expect(delivery["last_error"] == "answered 200 without a JSON object holding url and confirmation_code")
                #expect(received.all.count == 4)
            }
        }
    }

    @Test("a delivery left pending when the provider stopped is delivered when it starts again")
    func resumedAtStart() async throws {
        try await withReceiver(answers: [(.ok, "")]) { url, received in
            var configuration = configuration()
            configuration.store = .sqliteFile(path: temporaryDatabasePath())
            // A first run records the delivery; its attempt is held back as if the provider had stopped first.
            let first = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
            let now = ProviderTime.systemNow()
            try await first.store.saveNewDelivery(
                CallbackDelivery(
                    id: "42", appID: TestFixtures.appID, kind: .deauthorize, userID: TestFixtures.alice, url: url, signedRequest: "sig.payload",
                    status: .pending, attempts: 1, nextAttemptAt: now, lastError: "answered 503", responseStatus: 503, confirmationCode: nil,
                    statusURL: nil, createdAt: now, updatedAt: now))
            await first.store.close()
            try await withProvider(configuration) { client, _ in
                let delivery = try await settled(client)
                #expect(delivery["id"] == "42" && delivery["status"] == "delivered" && delivery["attempts"] == 2, "\(delivery)")
                #expect(received.all == ["signed_request=sig.payload"])
            }
        }
    }

    @Test(
        "two nodes: one that starts while another retries a delivery posts it no second time; delivered once, and stays so",
        .enabled(if: StoreDialect.available.contains(.postgres), "needs LIMITED_LOGIN_TEST_POSTGRES_URL (scripts/test)"))
    func twoNodesPostEachAttemptOnce() async throws {
        try await withReceiver(answers: [(.internalServerError, "no"), (.ok, ""), (.internalServerError, "no")]) { url, received in
            let location = try await StoreDialect.postgres.freshLocation()
            let nodeA = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
            let nodeC = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
            defer {
                Task {
                    await nodeA.close()
                    await nodeC.close()
                }
            }
            try await FixtureLoader(store: nodeA).load(TestFixtures.fixtures)
            var app = try #require(try await nodeA.app(id: TestFixtures.appID))
            app.deauthorizeCallbackURL = url
            let delays: [Duration] = [.seconds(1), .seconds(1), .seconds(1)]
            let delivererA = CallbackDeliverer(store: nodeA, logger: TestFixtures.quietLogger, retryDelays: delays, attemptTimeout: .seconds(5))
            let delivererC = CallbackDeliverer(store: nodeC, logger: TestFixtures.quietLogger, retryDelays: delays, attemptTimeout: .seconds(5))
            let delivery = try #require(try await delivererA.appRemoved(app, userID: TestFixtures.alice))
            // Node A's first attempt got its 500; node C starts and takes up what is pending.
            for _ in 0..<200 where received.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(100))
            await delivererC.resumePending()
            var stored = try #require(try await nodeA.delivery(id: delivery.id))
            for _ in 0..<200 where stored.status == .pending {
                try await Task.sleep(for: .milliseconds(50))
                stored = try #require(try await nodeA.delivery(id: delivery.id))
            }
            // Longer than a retry delay: no node posts again after the delivery.
            try await Task.sleep(for: .milliseconds(2500))
            stored = try #require(try await nodeA.delivery(id: delivery.id))
            #expect(stored.status == .delivered && stored.attempts == 2, "\(stored)")
            #expect(received.all.count == 2, "each attempt posted once: \(received.all.count) posts")
        }
    }

    @Test("the console sets an app's callbacks, requests a data deletion from a grant's row and lists the delivery")
    func console() async throws {
        try await withReceiver(answers: [(.ok, #"{"url": "https://app.example/d", "confirmation_code": "c0de"}"#)]) { url, _ in
            try await withProvider(configuration()) { client, _ in
                _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
                let browser = DialogBrowser(client: client)
                let page = try await ConsoleTests.signIn(browser)
                let csrf = try #require(page.hiddenInput("csrf"))
                let edited = try await ConsoleTests.act(
                    browser, "edit-app", csrf: csrf,
                    [("app_id", TestFixtures.appID), ("data_deletion_callback_url", url), ("deauthorize_callback_url", "")])
                #expect(edited.status == .seeOther, "\(edited.body.prefix(300))")
                let requested = try await ConsoleTests.act(
                    browser, "request-data-deletion", csrf: csrf, [("app_id", TestFixtures.appID), ("user_id", TestFixtures.alice)])
                #expect(requested.status == .seeOther, "\(requested.body.prefix(300))")
                _ = try await settled(client)
                let apps = try await browser.get("/_console/apps")
                #expect(
                    apps.body.contains(
                        #"id="app-deletion-\#(TestFixtures.appID)" name="data_deletion_callback_url" value="\#(HTMLEscaping.escape(url))""#))
                let after = try await browser.get("/_console/deliveries")
                #expect(
                    after.body.contains(#"data-status="delivered""#) && after.body.contains("c0de (https://app.example/d)"),
                    "\(after.body.suffix(1500))")
            }
        }
    }

    @Test(
        "callback URLs on the provider's own network are refused in every spelling; loopback only as the test receivers use it; --allow-private-callbacks allows them (issue #56)",
        arguments: [
            "http://169.254.169.254/latest/meta-data", "http://10.0.0.1:6379/x", "http://[::1]:22/x", "http://127.1:8080/x",
            "http://2130706433:8080/x",
            "http://0x7f.1:8080/x", "http://0.0.0.0:8080/x", "http://192.168.1.10/cb", "http://172.16.0.5/cb", "http://100.64.0.1/cb",
            "http://[fe80::1]:8080/x", "http://[fd00::1]/x", "http://[::ffff:10.0.0.1]/x", "http://[::]:8080/x", "http://localhost:80/x",
            "http://127.0.0.1:22/x", "http://127.0.0.2:8080/x", "http://app.localhost:8080/x",
        ])
    func privateAddresses(url: String) async throws {
        try await withProvider(configuration()) { client, _ in
            let refused = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"data_deletion_callback_url": "\#(url)"}"#)
            #expect(refused.status == .badRequest)
            #expect(refused.message == "The data_deletion_callback_url \"\(url)\" \(CallbackAddressPolicy.refusal).")
            let app = try await admin(client, "/_admin/apps")
            #expect(!"\(app.object)".contains(url), "nothing written")
        }
        var allowing = configuration()
        allowing.allowsPrivateCallbacks = true
        try await withProvider(allowing) { client, _ in
            try await setCallbacks(client, dataDeletion: url)
        }
    }

    @Test("the test receivers' loopback spellings and public hosts are taken; a stored private URL is not posted to; names are resolved")
    func allowedAddressesAndStoredOnes() async throws {
        try await withProvider(configuration()) { client, _ in
            for url in [
                "http://127.0.0.1:8000/cb", "http://[::1]:9000/cb", "http://localhost:5000/cb", "https://app.example/cb", "http://8.8.8.8/cb",
            ] {
                try await setCallbacks(client, deauthorize: url)
            }
        }
        #expect(CallbackAddressPolicy.Address.resolve("localhost").contains { !$0.isPublic })
        #expect(CallbackAddressPolicy.Address(literal: "8.8.8.8")?.isPublic == true)
        #expect(CallbackAddressPolicy.Address(literal: "2001:4860:4860::8888")?.isPublic == true)
        // A URL a fixtures file (the operator's) or an older store holds is judged again when posted.
        var configuration = configuration()
        var fixtures = try #require(configuration.fixtures)
        fixtures.apps[0].deauthorizeCallbackURL = "http://10.255.255.1:6379/x"
        configuration.fixtures = fixtures
        try await withProvider(configuration) { client, _ in
            _ = try await classicLogin(client, as: TestFixtures.alice, scope: "public_profile")
            #expect(try await admin(client, "/_admin/grants/\(TestFixtures.appID)/\(TestFixtures.alice)", method: .delete).status == .ok)
            let delivery = try await settled(client)
            #expect(delivery["status"] == "failed", "\(delivery)")
            #expect(delivery["last_error"] == .string("not posted: the callback URL \(CallbackAddressPolicy.refusal)"), "\(delivery)")
        }
    }

    @Test("refused: a callback URL that is not http(s), a data deletion without a URL, for an unknown person or one who never logged in")
    func refusals() async throws {
        try await withProvider(configuration()) { client, _ in
            let bad = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"deauthorize_callback_url": "ftp://app.example/x"}"#)
            #expect(bad.status == .badRequest)
            #expect(bad.message?.contains("deauthorize_callback_url \"ftp://app.example/x\" must be an http or https URL") == true, "\(bad.object)")
            // A port no connection can use (the HTTP client would trap on it when the callback is posted).
            let badPort = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"deauthorize_callback_url": "http://127.0.0.1:99999/x"}"#)
            #expect(badPort.status == .badRequest)
            #expect(badPort.message?.contains("a port of 1 to 65535") == true, "\(badPort.object)")
            let noURL = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/data-deletion", method: .post, json: #"{"user_id": "100001"}"#)
            #expect(
                noURL.status == .badRequest
                    && noURL.message == "App \(TestFixtures.appID) has no data deletion callback URL (data_deletion_callback_url).")
            try await setCallbacks(client, dataDeletion: "http://127.0.0.1:1029/x")
            let unknown = try await admin(
                client, "/_admin/apps/\(TestFixtures.appID)/data-deletion", method: .post, json: #"{"user_id": "nobody@example.com"}"#)
            #expect(unknown.status == .notFound && unknown.message == "No test user with ID or email nobody@example.com.")
            let never = try await admin(client, "/_admin/apps/\(TestFixtures.appID)/data-deletion", method: .post, json: #"{"user_id": "100001"}"#)
            #expect(
                never.status == .badRequest
                    && never.message?.hasSuffix("never logged in to app \(TestFixtures.appID): it holds no data of theirs.") == true)
            let list = try await admin(client, "/_admin/deliveries")
            #expect(list.object["deliveries"] == .array([]), "nothing was posted")
            // Cleared with an empty string.
            try await setCallbacks(client, dataDeletion: "")
            let app = try await admin(client, "/_admin/apps")
            let mine = (app.object["apps"]?.arrayValue ?? []).compactMap(\.objectValue).first { $0["id"] == .string(TestFixtures.appID) }
            #expect(mine?["data_deletion_callback_url"] == nil, "\(String(describing: mine))")
        }
    }
}
