import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

@Suite("Harness: tokens minted through the admin API")
struct HarnessTokenTests {
    @Test("a limited token for a user by email verifies, carries the nonce and the granted claims, and records the grant")
    func limitedToken() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let reply = try await admin(
                client, "/_admin/tokens", method: .post,
                json: """
                    {"app_id":"\(TestFixtures.appID)","user":"alice@example.com","permissions":["email","user_friends"],"nonce":"n-1"}
                    """)
            #expect(reply.status == .created)
            let verified = try await verifyIDToken(try reply.idToken(), provider: provider, nonce: "n-1")
            let asid = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.alice)
            #expect(verified.claims.sub == asid)
            #expect(verified.claims.email == "alice@example.com")
            #expect(reply.object["access_token"] == nil, "a limited login gets no access token")
            #expect(reply.object["claims"]?.objectValue?["nonce"] == "n-1")
            #expect(reply.object["granted_scopes"] == .array(["email", "public_profile", "user_friends"]))
            let grant = try #require(try await provider.store.grant(appID: TestFixtures.appID, userID: TestFixtures.alice))
            #expect(grant.installed && grant.granted == [.publicProfile, .email, .userFriends])

            // The grant counts as a consent: the dialog completes without asking again.
            let page = try await DialogBrowser(client: client).logIn(dialogPath(scope: "email,user_friends"), as: TestFixtures.alice)
            #expect(try page.redirectParameters().single("id_token") != nil)
        }
    }

    @Test("the friends rule holds: a friend appears once they granted user_friends in the app")
    func friendsRule() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let before = try await admin(
                client, "/_admin/tokens", method: .post,
                json: """
                    {"app_id":"\(TestFixtures.appID)","user":"\(TestFixtures.alice)","permissions":"user_friends"}
                    """)
            #expect(before.object["claims"]?.objectValue?["user_friends"] == .array([]))
            _ = try await admin(
                client, "/_admin/tokens", method: .post,
                json: """
                    {"app_id":"\(TestFixtures.appID)","user":"bob@example.com","permissions":"user_friends"}
                    """)
            let after = try await admin(
                client, "/_admin/tokens", method: .post,
                json: """
                    {"app_id":"\(TestFixtures.appID)","user":"\(TestFixtures.alice)","permissions":"user_friends"}
                    """)
            let bobASID = try await provider.store.appScopedID(appID: TestFixtures.appID, userID: TestFixtures.bob)
            #expect(after.object["claims"]?.objectValue?["user_friends"] == .array([.string(bobASID)]))
        }
    }

    @Test("a classic token comes with an access token that the Graph API accepts, and at_hash")
    func classicToken() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let reply = try await admin(
                client, "/_admin/tokens", method: .post,
                json: """
                    {"app_id":"\(TestFixtures.appID)","user":"alice@example.com","permissions":["email","user_likes"],"tracking":"enabled","nonce":"n-2"}
                    """)
            #expect(reply.status == .created)
            let access = try #require(reply.object["access_token"]?.stringValue)
            let verified = try await verifyIDToken(try reply.idToken(), provider: provider, nonce: "n-2")
            #expect(verified.claims.atHash == AccessTokenHash.of(access))
            let me = try await client.execute(uri: "/v21.0/me?fields=email&access_token=\(access)", method: .get)
            #expect(String(buffer: me.body).contains("alice@example.com"))
        }
    }

    @Test("bad requests are refused with the exact error")
    func refusals() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let app = TestFixtures.appID
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"user":"alice@example.com"}"#, .badRequest, "Give \"app_id\"."),
                (#"{"app_id":"\#(app)"}"#, .badRequest, "Give \"user\": a test user's ID or email (or \"subject\": a sub no stored user has)."),
                (#"{"app_id":"999","user":"alice@example.com"}"#, .notFound, "No app with ID 999."),
                (#"{"app_id":"\#(app)","user":"nobody@example.com"}"#, .notFound, "No test user nobody@example.com (give an ID or an email)."),
                (
                    #"{"app_id":"\#(app)","user":"alice@example.com","defect":"rotten"}"#, .badRequest,
                    "Unknown defect \"rotten\"; one of: " + TokenDefect.allCases.map(\.rawValue).joined(separator: ", ") + "."
                ),
                (
                    #"{"app_id":"\#(app)","user":"alice@example.com","tracking":"partly"}"#, .badRequest,
                    "\"tracking\" must be \"limited\" or \"enabled\"."
                ),
                (
                    #"{"app_id":"\#(app)","user":"alice@example.com","permissions":["user_likes"]}"#, .badRequest,
                    "\"user_likes\" cannot be requested in a limited login"
                ),
                (
                    #"{"app_id":"\#(app)","user":"alice@example.com","nonce":"has space"}"#, .badRequest,
                    "the nonce must be a non-empty string without whitespace or control characters"
                ),
                (
                    #"{"app_id":"\#(app)","user":"alice@example.com","permissions":[1]}"#, .badRequest,
                    "\"permissions\" must be a list of permission names."
                ),
            ]
            for (body, status, message) in cases {
                let reply = try await admin(client, "/_admin/tokens", method: .post, json: body)
                #expect(reply.status == status, "\(body)")
                #expect(reply.message == message, "\(body)")
            }
        }
    }

    @Test("every defect is minted and the project's verifier refuses each with its own error")
    func defects() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            var seen: Set<String> = []
            for defect in TokenDefect.allCases {
                let reply = try await admin(
                    client, "/_admin/tokens", method: .post,
                    json: """
                        {"app_id":"\(TestFixtures.appID)","user":"alice@example.com","nonce":"n-3","defect":"\(defect.rawValue)"}
                        """)
                #expect(reply.status == .created, "\(defect): \(reply.object)")
                let token = try reply.idToken()
                do {
                    _ = try await verifyIDToken(token, provider: provider, nonce: "n-3")
                    Issue.record("\(defect.rawValue) was accepted")
                } catch let error as TokenVerificationError {
                    let expected = Self.expectedCode[defect]
                    #expect(error.code == expected, "\(defect.rawValue): \(error)")
                    if case .algorithmNotAllowed(let alg) = error {
                        #expect(alg == [TokenDefect.algNone: "none", .rs512: "RS512"][defect, default: "HS256"])
                        seen.insert(error.code + " " + alg)
                    } else {
                        seen.insert(error.code)
                    }
                }
            }
            #expect(seen.count == TokenDefect.allCases.count, "each defect has an error case of its own")
        }
    }

    /// What the project's verifier says to each defect.
    static let expectedCode: [TokenDefect: String] = [
        .expired: "expired", .issuedInFuture: "issued_in_future", .tooOld: "issued_too_long_ago",
        .wrongAudience: "audience_mismatch", .wrongIssuer: "issuer_not_allowed", .wrongNonce: "nonce_mismatch",
        .badSignature: "invalid_signature", .unknownKey: "unknown_key", .algNone: "algorithm_not_allowed",
        .hs256PublicKey: "algorithm_not_allowed", .missingKid: "missing_key_id", .duplicateClaim: "invalid_json",
        .nonCanonicalBase64URL: "invalid_base64url", .critHeader: "forbidden_header_parameter", .rs512: "algorithm_not_allowed",
        .typNotJWT: "unsupported_type", .payloadNotObject: "not_a_json_object",
    ]
}
