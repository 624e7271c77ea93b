import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
@testable import LimitedLoginProvider
import LimitedLoginTestSupport
import SwiftASN1
import Testing
import X509

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

    @Test("each Facebook host name serves its own paths only", arguments: [
        ("limited.facebook.com", "/.well-known/openid-configuration/", true),
        ("limited.facebook.com", "/.well-known/oauth/openid/jwks/", true),
        ("m.facebook.com", "/.well-known/oauth/openid/certs/", true),
        ("m.facebook.com", "/v18.0/dialog/oauth", true),
        ("www.facebook.com", "/dialog/oauth/signin", true),
        ("www.facebook.com", "/platform/oidc/status", true),
        ("graph.facebook.com", "/v21.0/me", true),
        ("graph.facebook.com", "/v21.0/oauth/access_token", true),
        ("graph.facebook.com", "/oauth/access_token", true),
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
    }
}
