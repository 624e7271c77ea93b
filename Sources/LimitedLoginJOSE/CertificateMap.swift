import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// Why a certificate could not be made or read.
public enum CertificateMapError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidJSON(JSONParseError)
    case notAnObject
    case notAString(keyID: String)
    case unreadableCertificate(keyID: String, reason: String)
    case notRSA(keyID: String)
    case key(keyID: String, RSAKeyError)
    case signingFailed(String)

    public var description: String {
        switch self {
        case .invalidJSON(let error): return "the certificate map is not acceptable JSON: \(error)"
        case .notAnObject: return "the certificate map is not a JSON object of kid → PEM"
        case .notAString(let keyID): return "the certificate for \"\(keyID)\" is not a string"
        case .unreadableCertificate(let keyID, let reason): return "the certificate for \"\(keyID)\" cannot be read: \(reason)"
        case .notRSA(let keyID): return "the certificate for \"\(keyID)\" does not hold an RSA key"
        case .key(let keyID, let error): return "the certificate for \"\(keyID)\": \(error)"
        case .signingFailed(let reason): return "the certificate could not be made: \(reason)"
        }
    }
}

/// The `kid → PEM X.509 certificate` document that the real service publishes at
/// `/.well-known/oauth/openid/certs` and that the iOS SDK fetches to check ID tokens.
public enum CertificateMap {
    /// A self-signed certificate for a signing key, as PEM.
    ///
    /// - Parameters:
    ///   - key: the signing key; the certificate holds its public half and is signed by it.
    ///   - commonName: the subject and issuer common name.
    ///   - notBefore: start of validity.
    ///   - validity: how long the certificate is valid.
    public static func selfSignedCertificatePEM(
        for key: RS256PrivateKey,
        commonName: String,
        notBefore: Date,
        validity: TimeInterval = 10 * 365 * 24 * 3600
    ) throws(CertificateMapError) -> String {
        do {
            let name = try DistinguishedName { CommonName(commonName) }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.key.publicKey),
                notValidBefore: notBefore,
                notValidAfter: notBefore.addingTimeInterval(validity),
                issuer: name,
                subject: name,
                signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                },
                issuerPrivateKey: Certificate.PrivateKey(key.key)
            )
            return try certificate.serializeAsPEM().pemString
        } catch {
            throw .signingFailed("\(error)")
        }
    }

    /// The document for a set of `kid → PEM` certificates.
    public static func document(_ certificates: [String: String]) -> [UInt8] {
        JSONSerializer.serialize(.object(JSONObject(certificates.mapValues { .string($0) })))
    }

    /// Reads a certificate document and returns each certificate's RS256 public key by `kid`.
    public static func publicKeys<Bytes: Collection>(
        fromDocument document: Bytes
    ) throws(CertificateMapError)
        -> [String: RS256PublicKey] where Bytes.Element == UInt8
    {
        let value: JSONValue
        do { value = try StrictJSONParser(maximumSize: 1024 * 1024).parse(document) } catch { throw .invalidJSON(error) }
        guard let members = value.objectValue else { throw .notAnObject }
        var keys = [String: RS256PublicKey]()
        for (keyID, entry) in members {
            guard let pem = entry.stringValue else { throw .notAString(keyID: keyID) }
            let certificate: Certificate
            do { certificate = try Certificate(pemEncoded: pem) } catch {
                throw .unreadableCertificate(keyID: keyID, reason: "\(error)")
            }
            guard let rsa = _RSA.Signing.PublicKey(certificate.publicKey) else { throw .notRSA(keyID: keyID) }
            do { keys[keyID] = try RS256PublicKey(rsa) } catch { throw .key(keyID: keyID, error) }
        }
        return keys
    }
}
