import Foundation
import Hummingbird
import LimitedLoginJOSE
import LimitedLoginProvider

/// An attacker's own signing key, its key set and certificate served for the `jku` and `x5u` cases (a backend
/// that follows those headers fetches the attacker's key and trusts it): on 127.0.0.1, or on `--attacker-host`
/// for a backend on another machine.
package struct AuditAttacker: Sendable {
    package let key: RS256PrivateKey
    package let keyID: String
    package let keySetURL: String
    package let certificateURL: String
    /// The certificate's DER bytes, for the `x5c` case.
    package let certificateDER: Data

    /// Makes a key and serves it on `host` (a port the system picks) while `body` runs; throws
    /// ``LoopbackServerError/cannotBind(_:)`` when `host` is not an address of this machine.
    package static func serving<Value: Sendable>(
        host: String = "127.0.0.1", _ body: @Sendable (AuditAttacker) async throws -> Value
    ) async throws -> Value {
        let key = try RS256PrivateKey.generate()
        let keyID = "audit-attacker-" + UUID().uuidString.prefix(8).lowercased()
        let keySet = JSONWebKeySet(keys: [RSAJSONWebKey(publicKey: key.publicKey, keyID: keyID)]).serialized()
        let certificate = try CertificateMap.selfSignedCertificatePEM(
            for: key, commonName: "attacker.invalid", notBefore: Date(timeIntervalSinceNow: -3600))
        let router = Router()
        router.get("/jwks.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(bytes: keySet)))
        }
        router.get("/certificate.pem") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/x-pem-file"], body: .init(byteBuffer: .init(string: certificate)))
        }
        let authority = host.contains(":") ? "[\(host)]" : host
        return try await serveOnLoopback(responder: router.buildResponder(), serverName: "limited-login-audit", host: host) { port in
            try await body(
                AuditAttacker(
                    key: key, keyID: keyID, keySetURL: "http://\(authority):\(port)/jwks.json",
                    certificateURL: "http://\(authority):\(port)/certificate.pem", certificateDER: Self.der(fromPEM: certificate)
                ))
        }
    }

    /// Why the cases that need the attacker's server (`jku`, `x5u`) cannot test the backend at `endpointHost`,
    /// or nil when they can: served on loopback, the key reaches only a backend on this machine's loopback; a
    /// backend elsewhere would "refuse" a URL it cannot fetch and pass untested.
    package static func unreachableReason(endpointHost: String?, attackerHost: String?) -> String? {
        guard attackerHost == nil, let host = endpointHost?.lowercased(), !isLoopback(host) else { return nil }
        return "the backend at \(host) is not on this machine's loopback, and the attacker's key is served on 127.0.0.1 only: "
            + "give --attacker-host with an address of this machine the backend can reach"
    }

    /// `localhost`, `::1` or an address in 127.0.0.0/8.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        return octets.count == 4 && octets.allSatisfy { $0 != nil } && octets[0] == 127
    }

    /// The bytes inside a PEM block.
    package static func der(fromPEM pem: String) -> Data {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: body) ?? Data()
    }
}
