import Crypto
import Foundation
import SwiftASN1
import X509

/// The certificate authority `serve --tls` makes once and keeps in the store, and the server
/// certificates it signs for the provider's own address and the Facebook host names.
///
/// Its private key never leaves the store but by `GET /_admin/ca?include_key=true`
/// (`limited-login ca export --include-key`). Whoever trusts its certificate trusts every certificate it
/// signs, for any host name: trust it on test devices and machines only.
struct LocalCertificateAuthority: Sendable {
    static let keySetting = "tls_ca_private_key_pem"
    static let certificateSetting = "tls_ca_certificate_pem"
    /// How long the authority is valid: ten years.
    static let authorityValidity: TimeInterval = 10 * 365 * 24 * 3600
    /// How long a server certificate is valid: 397 days, the most Apple's platforms accept.
    static let serverValidity: TimeInterval = 397 * 24 * 3600

    let privateKey: P256.Signing.PrivateKey
    let certificate: Certificate

    var certificatePEM: String { (try? certificate.serializeAsPEM().pemString) ?? "" }
    var privateKeyPEM: String { privateKey.pemRepresentation }

    /// The store's authority, made on first use.
    ///
    /// Nodes starting at once on one database: the key stored first wins; the certificate is then the one
    /// stored first for that key, made by whichever node gets there (any node holding the key can make it).
    /// A store that holds the key without a certificate (or with an empty one, which an earlier version wrote
    /// when it lost that race) gets one made for its key.
    static func load(from store: ProviderStore) async throws -> LocalCertificateAuthority {
        var keyPEM = try await store.settingValue(keySetting)
        var candidate: LocalCertificateAuthority?
        if keyPEM == nil {
            let made = try make(now: Date())
            candidate = made
            keyPEM = try await store.setting(keySetting) { made.privateKeyPEM }
        }
        guard let keyPEM else { throw TLSSetupError("the store holds no CA") }
        let privateKey = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        var certificatePEM = try await store.settingValue(certificateSetting)
        if certificatePEM?.isEmpty ?? true {
            let made: String
            if let candidate, candidate.privateKeyPEM == keyPEM {
                made = candidate.certificatePEM
            } else {
                made = try make(now: Date(), key: privateKey).certificatePEM
            }
            if certificatePEM != nil { try await store.replaceEmptySetting(certificateSetting, with: made) }
            certificatePEM = try await store.setting(certificateSetting) { made }
        }
        guard let certificatePEM, !certificatePEM.isEmpty else { throw TLSSetupError("the store's CA certificate cannot be stored") }
        return LocalCertificateAuthority(privateKey: privateKey, certificate: try Certificate(pemEncoded: certificatePEM))
    }

    static func make(now: Date, key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) throws -> LocalCertificateAuthority {
        let name = try DistinguishedName {
            OrganizationName("limited-login (test only)")
            CommonName("limited-login local CA \(String(Int(now.timeIntervalSince1970)))")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(authorityValidity),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return LocalCertificateAuthority(privateKey: key, certificate: certificate)
    }

    /// A new server certificate and its key, for these DNS names and IP addresses.
    func serverCertificate(dnsNames: [String], ipAddresses: [[UInt8]], now: Date) throws -> (certificate: Certificate, key: P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            OrganizationName("limited-login (test only)")
            CommonName(dnsNames.first ?? "limited-login")
        }
        let authorityKeyID = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        let names: [GeneralName] = dnsNames.map { .dnsName($0) } + ipAddresses.map { .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0))) }
        let serverCertificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Self.serverValidity),
            issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
                if let authorityKeyID { AuthorityKeyIdentifier(keyIdentifier: authorityKeyID) }
            },
            issuerPrivateKey: Certificate.PrivateKey(privateKey)
        )
        return (serverCertificate, key)
    }
}

/// Why `serve --tls` could not set up its certificates.
public struct TLSSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
