import Foundation
import NIOSSL
import X509

/// What `serve --tls` serves with: a server certificate from the store's ``LocalCertificateAuthority``
/// for the provider's own address and every Facebook host name, made at each start.
struct ServerTLS: Sendable {
    let authority: LocalCertificateAuthority
    let configuration: TLSConfiguration

    static func prepare(store: ProviderStore, host: String, publicBaseURL: String?) async throws -> ServerTLS {
        let authority = try await LocalCertificateAuthority.load(from: store)
        var dnsNames = ["localhost"] + FacebookHosts.all
        var addresses: [[UInt8]] = [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
        for name in [host, publicBaseURL.flatMap { URL(string: $0)?.host }].compactMap({ $0 }) {
            let bare = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if let bytes = Self.ipv4Bytes(bare) {
                if !addresses.contains(bytes) { addresses.append(bytes) }
            } else if !bare.contains(":"), !bare.isEmpty, !dnsNames.contains(bare.lowercased()) {
                dnsNames.append(bare.lowercased())
            }
        }
        let (certificate, key) = try authority.serverCertificate(dnsNames: dnsNames, ipAddresses: addresses, now: Date())
        let chain = try [certificate, authority.certificate].map {
            NIOSSLCertificateSource.certificate(try NIOSSLCertificate(bytes: Array($0.serializeAsPEM().pemString.utf8), format: .pem))
        }
        let privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12
        return ServerTLS(authority: authority, configuration: configuration)
    }

    private static func ipv4Bytes(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { UInt8($0) }
        return bytes.count == 4 ? bytes : nil
    }
}
