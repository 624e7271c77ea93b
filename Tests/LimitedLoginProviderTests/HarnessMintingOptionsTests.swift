import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

@testable import LimitedLoginProvider

/// Issue #30 item 5: minting covers what tests need (claims added, replaced or removed, a lifetime, iat and
/// exp, a raw nonce hashed as Firebase and Supabase expect), and item 4 for minting: a misspelt key is
/// refused, naming it, never ignored.
@Suite("Harness: minting options")
struct HarnessMintingOptionsTests {
    static func mint(_ client: any TestClientProtocol, _ extra: String) async throws -> AdminReply {
        try await admin(
            client, "/_admin/tokens", method: .post,
            json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com","permissions":["email"]\#(extra)}"#)
    }

    @Test("raw_nonce: the token carries the raw nonce's SHA-256 hex, and a verifier given the raw nonce accepts it")
    func rawNonce() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let reply = try await Self.mint(client, #","raw_nonce":"r-1""#)
            #expect(reply.status == .created, "\(reply.message ?? "")")
            let claims = try #require(reply.object["claims"]?.objectValue)
            #expect(claims["nonce"]?.stringValue == Nonce.sha256Hex(ofRaw: "r-1"))
            #expect(claims["nonce"]?.stringValue == "a5fa777a3dc67268caea6eea038ba14177e360dba84e1db44e738dbae137e7ef", "SHA-256 of r-1")
            let keys = try await provider.services.keyring.current().keySet
            let verifier = TokenVerifier(
                configuration: VerifierConfiguration(appID: TestFixtures.appID, allowedIssuers: [provider.urls.issuer]), keys: StaticKeySet(keys)
            )
            _ = try await verifier.verify(try reply.idToken(), nonce: .sha256OfRawNonce("r-1"))
            let both = try await Self.mint(client, #","nonce":"n","raw_nonce":"r""#)
            #expect(both.status == .badRequest && both.message == "Give \"nonce\" or \"raw_nonce\", not both.")
        }
    }

    @Test("claims: added, replaced and removed (null); lifetime sets exp from iat; iat and exp outright")
    func claimsAndTimes() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let changed = try await Self.mint(client, #","claims":{"email":"other@example.com","picture":null,"team":"blue"},"lifetime":5"#)
            #expect(changed.status == .created, "\(changed.message ?? "")")
            let claims = try #require(changed.object["claims"]?.objectValue)
            #expect(claims["email"] == "other@example.com")
            #expect(claims["picture"] == nil)
            #expect(claims["team"] == "blue")
            let iat = try #require(claims["iat"]?.integerValue)
            let exp = try #require(claims["exp"]?.integerValue)
            #expect(exp - iat == 5)
            // The token carries what the answer says.
            let payload = try CompactJWS(parsing: try changed.idToken()).payload
            #expect(payload["email"] == "other@example.com" && payload["picture"] == nil && payload["team"] == "blue")

            let timed = try await Self.mint(client, #","iat":1900000000,"exp":1900000060"#)
            #expect(timed.object["claims"]?.objectValue?["iat"] == 1_900_000_000 && timed.object["claims"]?.objectValue?["exp"] == 1_900_000_060)
            let iatAlone = try await Self.mint(client, #","iat":1900000000"#)
            #expect(iatAlone.object["claims"]?.objectValue?["exp"] == 1_900_003_600, "an iat alone keeps the usual hour from it")
            let iatAndLifetime = try await Self.mint(client, #","iat":1900000000,"lifetime":30"#)
            #expect(iatAndLifetime.object["claims"]?.objectValue?["exp"] == 1_900_000_030)
        }
    }

    @Test("subject: a sub no stored user has, a stand-in profile the claims replace, no grant recorded, limited only")
    func unstoredSubject() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let body =
                #"{"app_id":"\#(TestFixtures.appID)","subject":"10150000000000042","permissions":["email","user_friends"],"claims":{"name":"Zed"}}"#
            let reply = try await admin(client, "/_admin/tokens", method: .post, json: body)
            #expect(reply.status == .created, "\(reply.message ?? "")")
            let payload = try CompactJWS(parsing: try reply.idToken()).payload
            #expect(payload["sub"] == "10150000000000042")
            #expect(payload["name"] == "Zed")
            #expect(payload["email"] == "10150000000000042@example.invalid")
            #expect(payload["user_friends"] == .array([]), "a subject without a stored user has no friends")
            let keys = try await provider.services.keyring.current().keySet
            let verifier = TokenVerifier(
                configuration: VerifierConfiguration(appID: TestFixtures.appID, allowedIssuers: [provider.urls.issuer]), keys: StaticKeySet(keys)
            )
            let verified = try await verifier.verify(try reply.idToken(), nonce: .exact(payload["nonce"]?.stringValue ?? ""))
            #expect(verified.claims.sub == "10150000000000042")
            #expect(try await provider.services.store.user(idOrEmail: "10150000000000042") == nil, "nothing stored")

            for (json, message) in [
                (#"{"app_id":"\#(TestFixtures.appID)","subject":"a b"}"#, "\"subject\" must be 1 to 64 letters, digits, '-', '_' or '.'."),
                (#"{"app_id":"\#(TestFixtures.appID)","subject":""}"#, "\"subject\" must be 1 to 64 letters, digits, '-', '_' or '.'."),
                (#"{"app_id":"\#(TestFixtures.appID)","subject":"1","user":"alice@example.com"}"#, "Give \"user\" or \"subject\", not both."),
                (
                    #"{"app_id":"\#(TestFixtures.appID)","subject":"1","tracking":"enabled"}"#,
                    "A \"subject\" without a stored user gets an ID token only (\"tracking\": \"limited\"); give \"user\" for a classic login."
                ),
                (#"{"app_id":"\#(TestFixtures.appID)"}"#, "Give \"user\": a test user's ID or email (or \"subject\": a sub no stored user has)."),
            ] {
                let refused = try await admin(client, "/_admin/tokens", method: .post, json: json)
                #expect(refused.status == .badRequest)
                #expect(refused.message == message)
            }
        }
    }

    @Test(
        "refusals: a misspelt key names itself and the accepted ones; bad claims, lifetimes and times",
        arguments: [
            (
                #","lifetme":5"#,
                "Unknown key \"lifetme\"; the accepted keys are: app_id, claims, defect, exp, iat, ignore_development_mode, lifetime, nonce, permissions, raw_nonce, subject, tracking, user."
            ),
            (#","claims":[1]"#, "\"claims\" must be an object of claim names and values (null removes a claim)."),
            (#","lifetime":0"#, "\"lifetime\" must be a whole number of seconds from 1 to 316224000 (ten years)."),
            (#","lifetime":1.5"#, "\"lifetime\" must be a whole number of seconds from 1 to 316224000 (ten years)."),
            (#","lifetime":60,"exp":1900000000"#, "Give \"lifetime\" or \"exp\", not both."),
            (#","iat":"now""#, "\"iat\" must be whole seconds since 1970."),
            (#","exp":-1"#, "\"exp\" must be whole seconds since 1970."),
            (#","raw_nonce":7"#, "\"raw_nonce\" must be a string."),
        ])
    func refusals(extra: String, message: String) async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let reply = try await Self.mint(client, extra)
            #expect(reply.status == .badRequest)
            #expect(reply.message == message)
        }
    }
}
