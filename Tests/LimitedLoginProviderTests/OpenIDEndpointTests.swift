import Foundation
import HummingbirdTesting
import LimitedLoginJOSE
@testable import LimitedLoginProvider
import LimitedLoginTestSupport
import Testing

@Suite("OpenID endpoints: discovery, JWKS, certificates")
struct OpenIDEndpointTests {
    @Test("discovery names the issuer, endpoints, response types, pairwise subjects and RS256, with or without a trailing slash")
    func discoveryDocument() async throws {
        try await withProvider { client, _ in
            for path in ["/.well-known/openid-configuration", "/.well-known/openid-configuration/"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok)
                let document = try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue)
                #expect(document["issuer"] == .string("http://provider.test"))
                #expect(document["authorization_endpoint"] == .string("http://provider.test/v21.0/dialog/oauth"))
                #expect(document["jwks_uri"] == .string("http://provider.test/.well-known/oauth/openid/jwks/"))
                #expect(document["response_types_supported"] == ["id_token", "token id_token"])
                #expect(document["subject_types_supported"] == ["pairwise"])
                #expect(document["id_token_signing_alg_values_supported"] == ["RS256"])
                let scopes = try #require(document["scopes_supported"]?.arrayValue)
                #expect(scopes.contains("openid") && scopes.contains("user_friends"))
                #expect(Set(scopes).count == scopes.count, "no scope listed twice")
                let claims = try #require(document["claims_supported"]?.arrayValue)
                for claim in ["sub", "nonce", "user_friends", "user_age_range", "picture"] {
                    #expect(claims.contains(.string(claim)))
                }
            }
        }
    }

    @Test("the configured issuer replaces the base URL in discovery")
    func configuredIssuer() async throws {
        var configuration = TestFixtures.configuration()
        configuration.issuer = "https://www.facebook.com"
        try await withProvider(configuration) { client, _ in
            let response = try await client.execute(uri: "/.well-known/openid-configuration", method: .get)
            let document = try #require(try StrictJSONParser().parse(Array(String(buffer: response.body).utf8)).objectValue)
            #expect(document["issuer"] == .string("https://www.facebook.com"))
            #expect(document["jwks_uri"] == .string("http://provider.test/.well-known/oauth/openid/jwks/"))
        }
    }

    @Test("the JWKS publishes the signing key with kid, kty, alg, use, n and e, and the certs map holds the same key")
    func keySetAndCertificates() async throws {
        try await withProvider { client, provider in
            let jwks = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get)
            #expect(jwks.status == .ok)
            #expect(jwks.headers[.cacheControl] == "public, max-age=3600")
            let document = try #require(try StrictJSONParser().parse(Array(String(buffer: jwks.body).utf8)).objectValue)
            let keys = try #require(document["keys"]?.arrayValue)
            #expect(keys.count == 1)
            let key = try #require(keys.first?.objectValue)
            #expect(Set(key.keys) == ["kid", "kty", "alg", "use", "n", "e"])
            #expect(key["kty"] == "RSA" && key["alg"] == "RS256" && key["use"] == "sig")
            let keyID = try #require(key["kid"]?.stringValue)
            #expect(keyID.count == 40)

            let certs = try await client.execute(uri: "/.well-known/oauth/openid/certs", method: .get)
            #expect(certs.status == .ok)
            let certificateKeys = try CertificateMap.publicKeys(fromDocument: Array(String(buffer: certs.body).utf8))
            let certificateKey = try #require(certificateKeys[keyID])
            let published = try JSONWebKeySet(parsing: Array(String(buffer: jwks.body).utf8))
            guard case .found(let jwk) = published.lookup(keyID) else {
                Issue.record("the JWKS has no usable key \(keyID)")
                return
            }
            #expect(certificateKey.components().modulus == jwk.components().modulus)
            let signer = try await provider.services.keyring.current().signer
            #expect(signer.keyID == keyID)
        }
    }

    @Test("health answers ok while the store works, and 503 once it is closed")
    func health() async throws {
        try await withProvider { client, provider in
            let ok = try await client.execute(uri: "/health", method: .get)
            #expect(ok.status == .ok && String(buffer: ok.body) == "{\"status\":\"ok\"}")
            await provider.store.close()
            let down = try await client.execute(uri: "/health", method: .get)
            #expect(down.status == .serviceUnavailable && String(buffer: down.body) == "{\"status\":\"unavailable\"}")
        }
    }
}
