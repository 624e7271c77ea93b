import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import NIOCore
import NIOSSL
import SwiftASN1
import Testing
import X509

@testable import LimitedLoginProvider

/// Issue #21: the local certificate authority of `serve --tls`, its server certificates, and routing by the
/// real service's host names. (Real TLS clients, curl, Python, Chromium and the SDK, are in Tests/Interop/test_tls.py.)
@Suite("TLS: local CA, server certificates, Facebook host names")
struct ProviderTLSTests {
    @Test("the CA is made once and kept in the store; a second start loads the same one")
    func authorityIsKept() async throws {
        var configuration = harnessConfiguration()
        configuration.tls = true
        try await withProvider(configuration) { client, provider in
            let first = try await LocalCertificateAuthority.load(from: provider.store)
            let second = try await LocalCertificateAuthority.load(from: provider.store)
            #expect(first.certificate == second.certificate && first.privateKeyPEM == second.privateKeyPEM)
            #expect(provider.certificateAuthorityPEM == first.certificatePEM)
            #expect(provider.urls.issuer == "https://www.facebook.com")

            let exported = try await admin(client, "/_admin/ca")
            #expect(exported.status == .ok && exported.object["certificate"]?.stringValue == first.certificatePEM)
            #expect(exported.object["private_key"] == nil, "the key only when asked")
            let withKey = try await admin(client, "/_admin/ca?include_key=true")
            #expect(withKey.object["private_key"]?.stringValue == first.privateKeyPEM)
            let bad = try await admin(client, "/_admin/ca?include_key=maybe")
            #expect(bad.status == .badRequest && bad.message == "include_key must be true or false, not \"maybe\".")
        }
    }

    @Test(
        "a store holding the CA key with an empty certificate (a lost race of an earlier version) or none gets one for that key",
        arguments: StoreDialect.available)
    func authorityWithoutCertificate(_ dialect: StoreDialect) async throws {
        try await withFreshStore(dialect) { store in
            let made = try LocalCertificateAuthority.make(now: Date())
            try await store.setSetting(LocalCertificateAuthority.keySetting, to: made.privateKeyPEM)
            try await store.setSetting(LocalCertificateAuthority.certificateSetting, to: "")
            let loaded = try await LocalCertificateAuthority.load(from: store)
            #expect(loaded.privateKeyPEM == made.privateKeyPEM, "the stored key is kept")
            #expect(try await store.settingValue(LocalCertificateAuthority.certificateSetting) == loaded.certificatePEM)
            #expect(try await LocalCertificateAuthority.load(from: store).certificate == loaded.certificate, "then kept")
        }
        // Two loads at once on a store with neither: one key, one certificate between them.
        try await withFreshStore(dialect) { store in
            async let one = LocalCertificateAuthority.load(from: store)
            async let other = LocalCertificateAuthority.load(from: store)
            let (first, second) = try await (one, other)
            #expect(first.privateKeyPEM == second.privateKeyPEM && first.certificate == second.certificate)
        }
    }

    /// Issue #33 item 4: under `--tls` a token's picture must be reachable from a device (whose hosts file names
    /// the provider), not at 127.0.0.1, which on the device is the device itself.
    @Test("standing in for the real service, the picture claim is on graph.facebook.com; with a public URL, on that")
    func pictureHost() async throws {
        var configuration = harnessConfiguration()
        configuration.publicBaseURL = nil
        configuration.tls = true
        try await withProvider(configuration) { client, _ in
            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com"}"#)
            let picture = try #require(minted.object["claims"]?.objectValue?["picture"]?.stringValue)
            #expect(picture.hasPrefix("https://graph.facebook.com/v21.0/") && picture.hasSuffix("/picture"), "\(picture)")
        }
        configuration.publicBaseURL = "https://idp.example.test"
        try await withProvider(configuration) { client, _ in
            let minted = try await admin(
                client, "/_admin/tokens", method: .post, json: #"{"app_id":"\#(TestFixtures.appID)","user":"alice@example.com"}"#)
            let picture = try #require(minted.object["claims"]?.objectValue?["picture"]?.stringValue)
            #expect(picture.hasPrefix("https://idp.example.test/v21.0/"), "\(picture)")
        }
    }

    @Test(
        "a live provider with TLS answers a client that trusts only its CA, under its own address and a Facebook host name; a client without the CA refuses it"
    )
    func servesHTTPS() async throws {
        var configuration = TestFixtures.configuration(publicBaseURL: nil)
        configuration.tls = true
        try await withLiveProvider(configuration) { baseURL, _, provider in
            #expect(baseURL.hasPrefix("https://127.0.0.1:"))
            let authority = try NIOSSLCertificate(bytes: Array(try #require(provider.certificateAuthorityPEM).utf8), format: .pem)
            var trusting = TLSConfiguration.makeClientConfiguration()
            trusting.trustRoots = .certificates([authority])
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: trusting))
            let untrusting = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let health = try await client.execute(HTTPClientRequest(url: baseURL + "/health"), timeout: .seconds(10))
                #expect(health.status == .ok)
                var discovery = HTTPClientRequest(url: baseURL + "/.well-known/openid-configuration/")
                discovery.headers.replaceOrAdd(name: "Host", value: "limited.facebook.com")
                let answer = try await client.execute(discovery, timeout: .seconds(10))
                let body = try await answer.body.collect(upTo: 1 << 16)
                let document = try #require(try StrictJSONParser().parse(Array(body.readableBytesView)).objectValue)
                #expect(document["issuer"]?.stringValue == "https://www.facebook.com")
                #expect(document["jwks_uri"]?.stringValue == "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
                // The provider's own address keeps its own addresses (each document is prepared apart).
                let own = try await client.execute(HTTPClientRequest(url: baseURL + "/.well-known/openid-configuration/"), timeout: .seconds(10))
                let ownBody = try await own.body.collect(upTo: 1 << 16)
                let ownDocument = try #require(try StrictJSONParser().parse(Array(ownBody.readableBytesView)).objectValue)
                #expect(ownDocument["jwks_uri"]?.stringValue == baseURL + "/.well-known/oauth/openid/jwks/")
                #expect(ownDocument["issuer"]?.stringValue == "https://www.facebook.com")
                var console = HTTPClientRequest(url: baseURL + "/_console")
                console.headers.replaceOrAdd(name: "Host", value: "www.facebook.com")
                #expect(try await client.execute(console, timeout: .seconds(10)).status == .notFound)

                // AsyncHTTPClient retries a failed handshake until the deadline, then throws the last failure.
                do {
                    _ = try await untrusting.execute(HTTPClientRequest(url: baseURL + "/health"), timeout: .seconds(2))
                    Issue.record("a client without the CA accepted the certificate")
                } catch {
                    #expect(String(reflecting: error).contains("CERTIFICATE_VERIFY_FAILED"), "\(String(reflecting: error))")
                }
            } catch {
                try? await client.shutdown()
                try? await untrusting.shutdown()
                throw error
            }
            try await client.shutdown()
            try await untrusting.shutdown()
        }
    }

    @Test("without --tls there is no CA to export, and the issuer stays the base URL")
    func noAuthorityWithoutTLS() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let answer = try await admin(client, "/_admin/ca")
            #expect(answer.status == .notFound && answer.message?.contains("start it with 'serve --tls'") == true)
            #expect(provider.certificateAuthorityPEM == nil && provider.urls.issuer == provider.urls.baseURL)
        }
    }

    @Test("a server certificate verifies under the CA for every Facebook host name and the provider's own addresses, and for no other name")
    func serverCertificateVerifies() async throws {
        let authority = try LocalCertificateAuthority.make(now: Date())
        let (certificate, _) = try authority.serverCertificate(
            dnsNames: ["localhost"] + FacebookHosts.all, ipAddresses: [[127, 0, 0, 1]], now: Date()
        )
        #expect(try certificate.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        #expect(certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) <= 398 * 24 * 3600, "Apple's platforms refuse longer")
        for name in FacebookHosts.all + ["localhost"] {
            #expect(await Self.verify(certificate, authority: authority, host: name), "\(name)")
        }
        #expect(await Self.verify(certificate, authority: authority, host: nil, ip: "127.0.0.1"))
        #expect(!(await Self.verify(certificate, authority: authority, host: "www.example.com")))
        let stranger = try LocalCertificateAuthority.make(now: Date())
        #expect(!(await Self.verify(certificate, authority: stranger, host: "www.facebook.com")), "another CA does not vouch for it")
    }

    static func verify(_ certificate: Certificate, authority: LocalCertificateAuthority, host: String?, ip: String? = nil) async -> Bool {
        var verifier = Verifier(rootCertificates: CertificateStore([authority.certificate])) {
            RFC5280Policy(validationTime: Date())
            ServerIdentityPolicy(serverHostname: host, serverIP: ip)
        }
        let result = await verifier.validate(leafCertificate: certificate, intermediates: CertificateStore())
        if case .validCertificate = result { return true }
        return false
    }

    @Test(
        "each Facebook host name serves its own paths only",
        arguments: [
            ("limited.facebook.com", "/.well-known/openid-configuration/", true),
            ("limited.facebook.com", "/.well-known/oauth/openid/jwks/", true),
            ("m.facebook.com", "/.well-known/oauth/openid/certs/", true),
            ("m.facebook.com", "/v18.0/dialog/oauth", true),
            ("www.facebook.com", "/dialog/oauth/signin", true),
            ("www.facebook.com", "/platform/oidc/status", true),
            ("graph.facebook.com", "/v21.0/me", true),
            ("graph.facebook.com", "/v21.0/oauth/access_token", true),
            ("graph.facebook.com", "/oauth/access_token", true),
            ("ep2.facebook.com", "/v21.0/me", true),
            ("ep1.facebook.com", "/v21.0/100001/picture", true),
            ("ep2.facebook.com", "/v21.0/dialog/oauth", false),
            ("www.limited.facebook.com", "/platform/uninstall/", true),
            ("www.limited.facebook.com", "/v21.0/dialog/oauth", false),
            ("www.limited.facebook.com", "/_admin/apps", false),
            ("graph.facebook.com", "/.well-known/openid-configuration", false),
            ("graph.facebook.com", "/v21.0/dialog/oauth", false),
            ("limited.facebook.com", "/v21.0/me", false),
            ("www.facebook.com", "/_console", false),
            ("m.facebook.com", "/_admin/apps", false),
            ("limited.facebook.com", "/health", false),
            ("www.facebook.com", "/", false),
            ("www.facebook.com", "/demo/callback", false),
        ])
    func hostRules(host: String, path: String, served: Bool) {
        #expect(FacebookHosts.serves(path, on: host) == served)
    }

    @Test("host names are matched without case, port or trailing dot; other names are not Facebook's")
    func hostNames() {
        #expect(FacebookHosts.host(of: "WWW.Facebook.com:443") == "www.facebook.com")
        #expect(FacebookHosts.host(of: "limited.facebook.com.") == "limited.facebook.com")
        #expect(FacebookHosts.host(of: "evil-facebook.com") == nil)
        #expect(FacebookHosts.host(of: "www.facebook.com.evil.example") == nil)
        #expect(FacebookHosts.host(of: "127.0.0.1:8080") == nil)
        #expect(FacebookHosts.host(of: nil) == nil)
        #expect(FacebookHosts.host(of: "GRAPH.FACEBOOK.COM") == "graph.facebook.com")
        #expect(FacebookHosts.host(of: "facebook.co") == nil)
        #expect(FacebookHosts.host(of: "faceboo\u{212A}.com") == nil)
        #expect(FacebookHosts.host(of: "[::1]:8080") == nil)
    }
}
