import Foundation
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Synchronization
import Testing

@testable import LimitedLoginProvider

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

    @Test("on plain HTTP, discovery never follows a client's Host: www.facebook.com (issue #31: a cacheable document naming other addresses)")
    func plainHTTPIgnoresFacebookHost() async throws {
        try await withLiveProvider(TestFixtures.configuration()) { _, client, _ in
            let port = try #require(client.port)
            // Polled with `Task.sleep` (not the blocking variant, which held one of the cooperative pool's two
            // threads, and with it the server's own work, for the whole wait: no answer within 10 s on a loaded run).
            func discovery(host: String) async throws -> String {
                try await LoopbackSocket(port: port).exchange("GET /.well-known/openid-configuration HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            }
            let plain = try await discovery(host: "127.0.0.1:\(port)")
            let forged = try await discovery(host: "www.facebook.com")
            #expect(forged.hasPrefix("HTTP/1.1 200 OK"))
            let body = { (answer: String) in answer.split(separator: "\r\n\r\n", maxSplits: 1).last.map(String.init) ?? "" }
            #expect(body(forged) == body(plain), "the document for Host: www.facebook.com is the provider's own")
            #expect(!body(forged).contains("facebook.com"), "\(body(forged))")
        }
    }

    @Test("the JWKS publishes the signing key with kid, kty, alg, use, n and e, and the certs map holds the same key")
    func keySetAndCertificates() async throws {
        try await withProvider { client, provider in
            let jwks = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get)
            #expect(jwks.status == .ok)
            #expect(jwks.headers[.cacheControl] == "public, max-age=300", "less than the default publish delay of a rotation")
            #expect(Int64(SigningKeyring.keySetCacheControl.split(separator: "=").last ?? "") ?? .max < RotationDefaults.publishDelay)
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

    @Test("health answers ok while the store works, and 503 once it is closed (a verdict is reused for a second)")
    func health() async throws {
        try await withProvider { client, provider in
            let ok = try await client.execute(uri: "/health", method: .get)
            #expect(ok.status == .ok && String(buffer: ok.body) == "{\"status\":\"ok\"}")
            #expect(ok.headers[.cacheControl] == "no-store")
            await provider.store.close()
            // Within the reuse interval the last verdict answers; after it, the store is asked again.
            try await Task.sleep(for: .nanoseconds(Int64(RecentHealthCheck.reuseInterval) + 100_000_000))
            let down = try await client.execute(uri: "/health", method: .get)
            #expect(down.status == .serviceUnavailable)
            #expect(String(buffer: down.body).hasPrefix(#"{"reason":"the store does not answer: "#), "\(String(buffer: down.body))")
            #expect(String(buffer: down.body).hasSuffix(#","status":"unavailable"}"#))
            #expect(down.headers[.retryAfter] == "5")
        }
    }

    @Test("a recent health verdict is reused: polls within a second make one check")
    func healthReused() async {
        let recent = RecentHealthCheck()
        let checks = Mutex(0)
        for _ in 0..<5 {
            #expect(
                await recent.problem {
                    checks.withLock { $0 += 1 }
                    return nil
                } == nil)
        }
        #expect(checks.withLock { $0 } == 1)
        let failing = RecentHealthCheck()
        #expect(await failing.problem { "down" } == "down")
        #expect(await failing.problem { nil } == "down", "a failed verdict is reused too, for the same second")
    }

    @Test("discovery, JWKS and certs carry an ETag and Cache-Control; If-None-Match with it gets 304 without a body")
    func conditionalRequests() async throws {
        try await withProvider { client, provider in
            for path in ["/.well-known/openid-configuration/", "/.well-known/oauth/openid/jwks/", "/.well-known/oauth/openid/certs/"] {
                let first = try await client.execute(uri: path, method: .get)
                #expect(first.status == .ok)
                let eTag = try #require(first.headers[.eTag])
                #expect(eTag.hasPrefix("\"") && eTag.hasSuffix("\"") && eTag.count == 34)
                let maxAge = path.contains("openid-configuration") ? "public, max-age=3600" : "public, max-age=300"
                #expect(first.headers[.cacheControl] == maxAge)
                let again = try await client.execute(uri: path, method: .get)
                #expect(again.headers[.eTag] == eTag, "the same bytes, the same validator")
                #expect(String(buffer: again.body) == String(buffer: first.body))
                for condition in [eTag, "W/\(eTag)", "\"other\", \(eTag)", "*"] {
                    let cached = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: condition])
                    #expect(cached.status == .notModified, "If-None-Match: \(condition)")
                    #expect(cached.body.readableBytes == 0)
                    #expect(cached.headers[.eTag] == eTag)
                    #expect(cached.headers[.cacheControl] == maxAge)
                }
                let stale = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"something-else\""])
                #expect(stale.status == .ok && stale.body.readableBytes > 0)
            }
            // A rotation changes the key set, and so its validator.
            let before = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get).headers[.eTag]
            _ = try await provider.services.keyring.rotate(publishDelay: 3600)
            let after = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get)
            #expect(after.headers[.eTag] != before)
            let refreshed = try await client.execute(uri: "/.well-known/oauth/openid/jwks/", method: .get, headers: [.ifNoneMatch: before ?? ""])
            #expect(refreshed.status == .ok, "the old validator no longer matches")
        }
    }
}
