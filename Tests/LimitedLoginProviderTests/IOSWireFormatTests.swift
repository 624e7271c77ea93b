import Crypto
import Foundation
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// The iOS SDK's own request and acceptance rules (FBSDKLoginKit's `LoginManager.logInParameters`,
/// `_LoginURLCompleter`, `AuthenticationTokenFactory` and `_AuthenticationTokenClaims`), replayed against
/// the provider: the callback it gives must be one that SDK would accept.
@Suite("The iOS SDK's wire format")
struct IOSWireFormatTests {
    static let nonce = "F7A6F2D1-1F0B-4E4B-9F40-3C1D2B0E9A77"
    static let challenge = "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"

    /// Exactly the query a limited login of the iOS SDK sends (docs/BEHAVIOUR.md, section 2).
    static func iOSQuery(appID: String, responseType: String = "id_token,graph_domain,user_token_nonce", tracking: Bool = false) -> String {
        let state = #"{"challenge":"\#(challenge)","0_auth_logger_id":"7C5A3F0E-3D4B-4B52-8E0E-1B1A1F3C9D11","3_method":"sfvc_auth"}"#
        var parameters = FormParameters()
        for (name, value) in [
            ("auth_type", "rerequest"), ("cbt", "1795312345678"), ("client_id", appID), ("default_audience", "friends"),
            ("display", "touch"), ("e2e", #"{"init":123456.789}"#), ("fbapp_pres", "0"), ("ies", "1"),
            ("local_client_id", ""), ("nonce", nonce), ("redirect_uri", "fb\(appID)://authorize/"),
            ("response_type", responseType), ("return_scopes", "true"),
            ("scope", "email,public_profile,user_friends,openid"), ("sdk", "ios"), ("sdk_version", "18.0.0"),
            ("state", state),
        ] { parameters.append(name, value) }
        if !tracking { parameters.append("tp", "ios_14_do_not_track") }
        return "/v18.0/dialog/oauth?" + parameters.encoded
    }

    @Test("the callback for the iOS SDK's exact query passes that SDK's checks, and the certs endpoint's keys verify the token")
    func callbackTheSDKAccepts() async throws {
        var configuration = TestFixtures.configuration()
        configuration.issuer = "https://www.facebook.com"
        try await withProvider(configuration) { client, _ in
            let page = try await DialogBrowser(client: client).logIn(Self.iOSQuery(appID: TestFixtures.appID), as: TestFixtures.alice)
            let location = try #require(page.location)
            // The redirect goes to the app's URL scheme, parameters in the fragment (what `_LoginURLCompleter` reads).
            #expect(location.hasPrefix("fb\(TestFixtures.appID)://authorize/#"))
            let parameters = try page.redirectParameters()
            // The state comes back byte for byte: the SDK compares the challenge inside it with the stored one.
            let state = try #require(try parameters.single("state"))
            guard case .object(let stateObject) = try StrictJSONParser().parse(Array(state.utf8)) else {
                Issue.record("state is not JSON: \(state)")
                return
            }
            #expect(stateObject["challenge"]?.stringValue == Self.challenge)
            #expect(try parameters.single("graph_domain") == "facebook")
            #expect(try parameters.single("granted_scopes")?.split(separator: ",").sorted() == ["email", "openid", "public_profile", "user_friends"])
            #expect(try parameters.single("denied_scopes") == "")
            #expect(try parameters.single("access_token") == nil, "a limited login never carries an access token")
            #expect(try parameters.single("error") == nil)
            let token = try #require(try parameters.single("id_token"))

            // `_AuthenticationTokenClaims`: jti and sub non-empty; iss a facebook.com https URL; aud the app;
            // not expired; issued within the last 10 minutes; the nonce exactly the configuration's.
            let jws = try CompactJWS(parsing: token)
            let claims = jws.payload
            #expect(claims["jti"]?.stringValue?.isEmpty == false)
            #expect(claims["sub"]?.stringValue?.isEmpty == false)
            let issuer = try #require(claims["iss"]?.stringValue.flatMap(URL.init(string:)))
            #expect(issuer.scheme == "https" && ["facebook.com", "www.facebook.com"].contains(issuer.host ?? ""))
            #expect(claims["aud"]?.stringValue == TestFixtures.appID)
            let now = Date().timeIntervalSince1970
            let exp = try #require(claims["exp"]?.numberValue)
            let iat = try #require(claims["iat"]?.numberValue)
            #expect(exp > now)
            #expect(iat > now - 600 && iat <= now + 60)
            #expect(claims["nonce"]?.stringValue == Self.nonce)
            // `AuthenticationTokenHeader`: RS256 with a kid, which `AuthenticationTokenFactory` looks up
            // in the certificates document.
            #expect(jws.header["alg"]?.stringValue == "RS256")
            let kid = try #require(jws.header["kid"]?.stringValue)

            let certs = try await client.execute(uri: "/.well-known/oauth/openid/certs/", method: .get)
            #expect(certs.status == .ok)
            let keys = try CertificateMap.publicKeys(fromDocument: Array(certs.body.readableBytesView))
            let key = try #require(keys[kid], "the certificates document has the token's kid")
            #expect(key.isValidSignature(jws.signature, for: jws.signingInput))
        }
    }

    /// Issue #33 item 1: a classic login's `AccessToken.userID` comes from `signed_request` (the SDK splits it
    /// at the dot and reads `user_id` from the payload); without it the SDK's token has an empty user ID and a
    /// second classic login fails with `userMismatch`.
    @Test("a classic login that asks for signed_request gets one: signed with the app secret, user_id the token's sub, the same on a second login")
    func classicSignedRequest() async throws {
        try await withProvider(TestFixtures.configuration()) { client, _ in
            let browser = DialogBrowser(client: client)
            let query = Self.iOSQuery(appID: TestFixtures.appID, responseType: "id_token,token_or_nonce,signed_request,graph_domain", tracking: true)
            var userIDs: [String] = []
            for login in 0..<2 {
                let page = try await browser.logIn(query, as: TestFixtures.alice)
                let parameters = try page.redirectParameters()
                #expect(try parameters.single("access_token")?.isEmpty == false, "login \(login)")
                let signed = try #require(try parameters.single("signed_request"), "login \(login): no signed_request")
                let parts = signed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                #expect(parts.count == 2)
                let expected = HMAC<SHA256>.authenticationCode(
                    for: Array(parts[1].utf8), using: SymmetricKey(data: Array(TestFixtures.appSecret.utf8)))
                #expect(try Base64URL.decode(parts[0]) == Array(expected), "the signature is HMAC-SHA256 of the payload with the app secret")
                guard case .object(let payload) = try StrictJSONParser().parse(try Base64URL.decode(parts[1])) else {
                    Issue.record("the payload is not a JSON object")
                    return
                }
                #expect(payload["algorithm"]?.stringValue == "HMAC-SHA256")
                #expect(payload["issued_at"]?.numberValue != nil)
                let userID = try #require(payload["user_id"]?.stringValue)
                let sub = try CompactJWS(parsing: try #require(try parameters.single("id_token"))).payload["sub"]?.stringValue
                #expect(userID == sub, "user_id is the app-scoped ID, as the ID token's sub")
                userIDs.append(userID)
            }
            #expect(userIDs.count == 2 && userIDs[0] == userIDs[1], "a second login has the same user ID (no userMismatch)")
        }
    }
}
