import Foundation
import Hummingbird
import LimitedLoginJOSE
import LimitedLoginProvider

/// An attacker's own signing key, its key set and certificate served on loopback for the `jku` and `x5u`
/// cases (a backend that follows those headers fetches the attacker's key and trusts it).
struct AuditAttacker: Sendable {
    let key: RS256PrivateKey
    let keyID: String
    let keySetURL: String
    let certificateURL: String
    /// The certificate's DER bytes, for the `x5c` case.
    let certificateDER: Data

    /// Makes a key and serves it on 127.0.0.1 (a port the system picks) while `body` runs.
    static func serving<Value: Sendable>(_ body: @Sendable (AuditAttacker) async throws -> Value) async throws -> Value {
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
        return try await serveOnLoopback(responder: router.buildResponder(), serverName: "limited-login-audit") { port in
            try await body(
                AuditAttacker(
                    key: key, keyID: keyID, keySetURL: "http://127.0.0.1:\(port)/jwks.json",
                    certificateURL: "http://127.0.0.1:\(port)/certificate.pem", certificateDER: Self.der(fromPEM: certificate)
                ))
        }
    }

    /// The bytes inside a PEM block.
    static func der(fromPEM pem: String) -> Data {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: body) ?? Data()
    }
}
