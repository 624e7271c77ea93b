import Crypto
import Foundation
import LimitedLoginJOSE
import LimitedLoginProvider

/// Makes each case's token: the provider mints the ones only its key can sign (good tokens, claims
/// changed, its named defects); the rest are made here from a good token, the provider's public key, or
/// an attacker's own key, as an attacker holding a token and the key set would make them.
package struct AuditTokenFactory: Sendable {
    package let provider: any AuditProviderAccess
    package let appID: String
    package let user: String
    package let attacker: AuditAttacker

    package init(provider: any AuditProviderAccess, appID: String, user: String, attacker: AuditAttacker) {
        (self.provider, self.appID, self.user, self.attacker) = (provider, appID, user, attacker)
    }

    /// The token for `auditCase`, for a request whose expected nonce is `nonces`.
    package func token(for auditCase: AuditCase, nonces: AuditNonces) async throws -> String {
        var claimNonce = nonces.expected
        switch auditCase {
        case .wrongNonce: claimNonce = nonces.expected + "-not-the-nonce"
        case .rawNonceUnhashed: claimNonce = nonces.raw
        default: break
        }
        func mint(defect: TokenDefect? = nil, claims: JSONObject? = nil, extra: JSONObject = [:]) async throws -> String {
            var body: JSONObject = ["app_id": .string(appID), "user": .string(user), "nonce": .string(claimNonce)]
            if let defect { body["defect"] = .string(defect.rawValue) }
            if let claims { body["claims"] = .object(claims) }
            for name in extra.keys { body[name] = extra[name] }
            return try await provider.mint(body)
        }
        let now = Int64(Date().timeIntervalSince1970)
        switch auditCase {
        case .valid, .wrongNonce, .rawNonceUnhashed: return try await mint()
        case .expired: return try await mint(defect: .expired)
        case .expiredPastLeeway: return try await mint(extra: ["iat": .number(Double(now - 600)), "exp": .number(Double(now - 61))])
        case .noExp: return try await mint(claims: ["exp": .null])
        case .noIat: return try await mint(claims: ["iat": .null])
        case .emptySub: return try await mint(claims: ["sub": ""])
        case .emptyJti: return try await mint(claims: ["jti": ""])
        case .issuerPrefix, .issuerSuffix:
            let good = try AuditJWS(try await mint())
            guard let payload = try? StrictJSONParser().parse(Base64URL.decode(good.payload)).objectValue, let issuer = payload["iss"]?.stringValue
            else { throw AuditFailure("the provider minted a token without iss") }
            let iss = auditCase == .issuerPrefix ? issuer + ".evil.example" : "https://evil.example/" + issuer
            return try await mint(claims: ["iss": .string(iss)])
        case .extraSegment: return try await mint() + ".e30"
        case .whitespaceInSignature:
            let good = try AuditJWS(try await mint())
            let signature = Base64URL.encode(good.signature)
            let middle = signature.index(signature.startIndex, offsetBy: signature.count / 2)
            return good.header + "." + good.payload + "." + signature[..<middle] + " " + signature[middle...]
        case .issuedInFuture: return try await mint(defect: .issuedInFuture)
        case .tooOld: return try await mint(defect: .tooOld)
        case .wrongAudience: return try await mint(defect: .wrongAudience)
        case .audienceList: return try await mint(claims: ["aud": .array([.string(appID), .string(Self.anotherApp(appID))])])
        case .wrongIssuer: return try await mint(defect: .wrongIssuer)
        case .noNonce: return try await mint(claims: ["nonce": .null])
        case .badSignature: return try await mint(defect: .badSignature)
        case .unknownKey: return try await mint(defect: .unknownKey)
        case .missingKid: return try await mint(defect: .missingKid)
        case .algNone: return try await mint(defect: .algNone)
        case .hs256PublicKey: return try await mint(defect: .hs256PublicKey)
        case .rs512SameKey: return try await mint(defect: .rs512)
        case .critHeader: return try await mint(defect: .critHeader)
        case .typNotJWT: return try await mint(defect: .typNotJWT)
        case .payloadNotObject: return try await mint(defect: .payloadNotObject)
        case .duplicateClaim: return try await mint(defect: .duplicateClaim)
        case .nonCanonicalBase64URL: return try await mint(defect: .nonCanonicalBase64URL)
        case .hugeToken: return try await mint(claims: ["audit_padding": .string(String(repeating: "A", count: 48 * 1024))])
        case .truncatedSignature, .paddedSignature:
            let good = try AuditJWS(try await mint())
            var signature = good.signature
            if auditCase == .truncatedSignature { signature.removeLast() } else { signature.insert(0, at: 0) }
            return good.replacing(signature: signature)
        case .signaturePadded, .signatureStandardBase64:
            let good = try AuditJWS(try await mint())
            let encoded = Base64URL.encode(good.signature)
            let signature =
                auditCase == .signaturePadded
                ? encoded + String(repeating: "=", count: max(1, (4 - encoded.count % 4) % 4))
                : encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            return good.header + "." + good.payload + "." + signature
        case .signatureFromOtherToken:
            let good = try AuditJWS(try await mint())
            let other = try AuditJWS(try await mint(claims: ["sub": .string(Self.otherSubject)]))
            return good.header + "." + other.payload + "." + Base64URL.encode(good.signature)
        case .algNoneUppercase:
            let good = try AuditJWS(try await mint())
            return good.rewrittenHeader(["alg": "NONE"]) + "." + good.payload + "."
        case .hs256PublicKeyPEMNewline, .hs256PublicKeyDER, .hs512PublicKey:
            let good = try AuditJWS(try await mint())
            let key = try await providerKey(named: good.keyID)
            let secret: [UInt8]
            switch auditCase {
            case .hs256PublicKeyDER: secret = Array(key.key.derRepresentation)
            default: secret = Array((key.key.pemRepresentation + "\n").utf8)
            }
            let alg = auditCase == .hs512PublicKey ? "HS512" : "HS256"
            let input = good.rewrittenHeader(["alg": .string(alg)]) + "." + good.payload
            let mac: [UInt8] =
                alg == "HS512"
                ? Array(HMAC<SHA512>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: secret)))
                : Array(HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: secret)))
            return input + "." + Base64URL.encode(mac)
        case .kidNamesAnotherKey, .jwkHeader, .jkuHeader, .x5uHeader, .x5cHeader:
            let good = try AuditJWS(try await mint())
            var header: JSONObject = ["alg": "RS256", "typ": "JWT", "kid": .string(attacker.keyID)]
            switch auditCase {
            case .kidNamesAnotherKey: header["kid"] = .string(good.keyID ?? "")
            case .jwkHeader: header["jwk"] = RSAJSONWebKey(publicKey: attacker.key.publicKey, keyID: attacker.keyID).json
            case .jkuHeader: header["jku"] = .string(attacker.keySetURL)
            case .x5cHeader: header["x5c"] = .array([.string(attacker.certificateDER.base64EncodedString())])
            default: header["x5u"] = .string(attacker.certificateURL)
            }
            let input = Base64URL.encode(JSONSerializer.serialize(.object(header))) + "." + good.payload
            return input + "." + Base64URL.encode(try attacker.key.sign(Array(input.utf8)))
        }
    }

    /// The same app ID with its last digit changed: another app's.
    package static func anotherApp(_ appID: String) -> String {
        guard let last = appID.last, let digit = last.wholeNumberValue else { return appID + "0" }
        return String(appID.dropLast()) + String((digit + 1) % 10)
    }

    /// The `sub` of the other token in `signature-from-other-token`.
    package static let otherSubject = "10150000000000999"

    /// The provider's published key with this `kid`.
    private func providerKey(named keyID: String?) async throws -> RS256PublicKey {
        let set = try await provider.keySet()
        guard let keyID, case .found(let key) = set.lookup(keyID) else {
            throw AuditFailure("the provider's key set does not hold the key its token names (\(keyID ?? "no kid"))")
        }
        return key
    }
}

/// A compact JWS taken apart: the header and payload as sent, the signature's bytes.
package struct AuditJWS {
    package let header: String
    package let payload: String
    package let signature: [UInt8]
    package let headerObject: JSONObject

    package init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signature = try? Base64URL.decode(parts[2]),
            let object = (try? StrictJSONParser().parse(Base64URL.decode(parts[0])))?.objectValue
        else { throw AuditFailure("the provider minted a token that is not a compact JWS") }
        header = parts[0]
        payload = parts[1]
        self.signature = signature
        headerObject = object
    }

    package var keyID: String? { headerObject["kid"]?.stringValue }

    package func replacing(signature: [UInt8]) -> String { header + "." + payload + "." + Base64URL.encode(signature) }

    /// The header with `changes` applied, encoded.
    package func rewrittenHeader(_ changes: JSONObject) -> String {
        var object = headerObject.dictionary
        for name in changes.keys { object[name] = changes[name] }
        return Base64URL.encode(JSONSerializer.serialize(.object(JSONObject(object))))
    }
}
