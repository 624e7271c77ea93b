import Crypto
import Foundation
import LimitedLoginJOSE

/// One named way to make a minted ID token wrong, for testing a backend's rejection paths
/// (`POST /_admin/tokens` with `"defect"`, `limited-login token --defect NAME`). Each is wrong in that way
/// only: a strict verifier refuses it with one specific error (the project's verifier: a case each).
public enum TokenDefect: String, CaseIterable, Sendable {
    case expired
    case issuedInFuture = "issued-in-future"
    case tooOld = "too-old"
    case wrongAudience = "wrong-audience"
    case wrongIssuer = "wrong-issuer"
    case wrongNonce = "wrong-nonce"
    case badSignature = "bad-signature"
    case unknownKey = "unknown-key"
    case algNone = "alg-none"
    case hs256PublicKey = "hs256-public-key"
    case missingKid = "missing-kid"
    case duplicateClaim = "duplicate-claim"
    case nonCanonicalBase64URL = "non-canonical-base64url"
    case critHeader = "crit-header"
    case rs512
    case typNotJWT = "typ-not-jwt"
    case payloadNotObject = "payload-not-object"

    /// A verifier's default maximum token age (the project's and the iOS SDK's): `too-old` goes past it.
    static let maximumAge: Int64 = 3600
    /// How far past a verifier's leeway (60 s by default) the time defects are.
    static let margin: Int64 = 600

    /// One line: what is wrong with the token.
    public var summary: String {
        switch self {
        case .expired: return "exp is 10 minutes past (iat 30 minutes ago)"
        case .issuedInFuture: return "iat is 10 minutes ahead"
        case .tooOld: return "iat is 70 minutes ago, past the 1-hour maximum age, while exp is still ahead"
        case .wrongAudience: return "aud is another app's ID"
        case .wrongIssuer: return "iss is https://issuer.invalid, not the provider's issuer"
        case .wrongNonce: return "nonce differs from the one asked for"
        case .badSignature: return "one bit of the RS256 signature is flipped"
        case .unknownKey: return "signed by a fresh key whose kid the JWKS does not publish"
        case .algNone: return "header alg is none, with an empty signature"
        case .hs256PublicKey: return "alg HS256, an HMAC keyed with the public key's PEM (key confusion)"
        case .missingKid: return "the header has no kid"
        case .duplicateClaim: return "the payload has sub twice (second value another user's)"
        case .nonCanonicalBase64URL: return "the payload's base64url has non-zero trailing bits (signature valid over it)"
        case .critHeader: return "the header marks an extension no one understands as critical (crit), signature valid"
        case .rs512: return "alg RS512: signed with the provider's own key, but with SHA-512, not RS256"
        case .typNotJWT: return "header typ is at+jwt (an access token's type, RFC 9068), signature valid"
        case .payloadNotObject: return "the payload is a JSON array holding the claims, not an object; signature valid"
        }
    }

    /// The defects made by changing claims; the others change how the token is encoded or signed.
    func adjust(_ claims: inout [String: JSONValue], now: Int64, lifetime: Int64) {
        switch self {
        case .expired:
            claims["iat"] = .number(Double(now - 3 * Self.margin))
            claims["exp"] = .number(Double(now - Self.margin))
        case .issuedInFuture:
            claims["iat"] = .number(Double(now + Self.margin))
            claims["exp"] = .number(Double(now + Self.margin + lifetime))
        case .tooOld:
            claims["iat"] = .number(Double(now - Self.maximumAge - Self.margin))
            claims["exp"] = .number(Double(now + Self.margin))
        case .wrongAudience:
            // The same app ID with its last digit changed: another app's, as a token for a sibling app would be.
            var audience = Array((claims["aud"]?.stringValue ?? "0").utf8)
            if let last = audience.last { audience[audience.count - 1] = last == UInt8(ascii: "9") ? UInt8(ascii: "0") : last + 1 }
            claims["aud"] = .string(String(decoding: audience, as: UTF8.self))
        case .wrongIssuer:
            claims["iss"] = .string("https://issuer.invalid")
        case .wrongNonce:
            claims["nonce"] = .string((claims["nonce"]?.stringValue ?? "") + "-not-the-nonce")
        default:
            break
        }
    }

    /// Encodes and signs the claims the way this defect says (the RS256 defaults when it says nothing).
    func sign(claims: JSONObject, signer: JWSSigner) async throws -> String {
        let payload = JSONSerializer.serialize(.object(claims))
        let header: JSONObject = ["alg": "RS256", "typ": "JWT", "kid": .string(signer.keyID)]
        switch self {
        case .badSignature:
            let token = try signer.sign(claims: claims)
            return Self.flippingSignatureBit(of: token)
        case .unknownKey:
            // A key no key set has.
            let stranger = JWSSigner(privateKey: try await SigningKeyring.generateKey(), keyID: SigningKeyring.makeKeyID())
            return try stranger.sign(claims: claims)
        case .algNone:
            let none: JSONObject = ["alg": "none", "typ": "JWT", "kid": .string(signer.keyID)]
            return Base64URL.encode(JSONSerializer.serialize(.object(none))) + "." + Base64URL.encode(payload) + "."
        case .hs256PublicKey:
            let hs256: JSONObject = ["alg": "HS256", "typ": "JWT", "kid": .string(signer.keyID)]
            let input = Base64URL.encode(JSONSerializer.serialize(.object(hs256))) + "." + Base64URL.encode(payload)
            let key = SymmetricKey(data: Array(signer.privateKey.publicKey.key.pemRepresentation.utf8))
            let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
            return input + "." + Base64URL.encode(Array(mac))
        case .missingKid:
            let noKid: JSONObject = ["alg": "RS256", "typ": "JWT"]
            return try signer.sign(headerBytes: JSONSerializer.serialize(.object(noKid)), payloadBytes: payload)
        case .duplicateClaim:
            return try signer.sign(headerBytes: JSONSerializer.serialize(.object(header)), payloadBytes: Self.duplicatingSub(payload))
        case .nonCanonicalBase64URL:
            return try Self.nonCanonical(claims: claims, header: header, signer: signer)
        case .critHeader:
            // RFC 7515 section 4.1.11: a recipient must refuse a critical extension it does not understand.
            let critical: JSONObject = [
                "alg": "RS256", "typ": "JWT", "kid": .string(signer.keyID),
                "crit": [.string(Self.unknownExtension)], Self.unknownExtension: true,
            ]
            return try signer.sign(headerBytes: JSONSerializer.serialize(.object(critical)), payloadBytes: payload)
        case .typNotJWT:
            let typed: JSONObject = ["alg": "RS256", "typ": "at+jwt", "kid": .string(signer.keyID)]
            return try signer.sign(headerBytes: JSONSerializer.serialize(.object(typed)), payloadBytes: payload)
        case .payloadNotObject:
            // The seed's validation: the payload must be a JSON object; here the claims are inside an array.
            return try signer.sign(headerBytes: JSONSerializer.serialize(.object(header)), payloadBytes: Array("[".utf8) + payload + Array("]".utf8))
        case .rs512:
            let rs512: JSONObject = ["alg": "RS512", "typ": "JWT", "kid": .string(signer.keyID)]
            let input = Base64URL.encode(JSONSerializer.serialize(.object(rs512))) + "." + Base64URL.encode(payload)
            let signature = try signer.privateKey.key.signature(for: SHA512.hash(data: Array(input.utf8)), padding: .insecurePKCS1v1_5)
            return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
        default:
            return try signer.sign(claims: claims)
        }
    }

    /// The header parameter `crit-header` names as critical: an extension no verifier knows.
    static let unknownExtension = "urn:limited-login:audit"

    /// The token with the lowest bit of the signature's first byte flipped.
    private static func flippingSignatureBit(of token: String) -> String {
        guard let dot = token.lastIndex(of: "."), var signature = try? Base64URL.decode(String(token[token.index(after: dot)...])),
            !signature.isEmpty
        else { return token + "A" }
        signature[0] ^= 1
        return String(token[...dot]) + Base64URL.encode(signature)
    }

    /// The payload with a second `sub` member appended: `…,"sub":"<other>"}`.
    private static func duplicatingSub(_ payload: [UInt8]) -> [UInt8] {
        var bytes = payload
        guard bytes.last == UInt8(ascii: "}") else { return bytes }
        bytes.removeLast()
        bytes += Array(#","sub":"100000000000000001"}"#.utf8)
        return bytes
    }

    /// A token whose payload segment decodes to the right bytes but is not the one canonical spelling: the
    /// last character carries non-zero unused bits. The RS256 signature is valid over that exact text, so
    /// only a verifier that insists on canonical base64url refuses it.
    private static func nonCanonical(claims: JSONObject, header: JSONObject, signer: JWSSigner) throws -> String {
        var claims = claims
        var payload = JSONSerializer.serialize(.object(claims))
        // A length that is a multiple of 3 leaves no unused bits: pad the jti until it does.
        while payload.count % 3 == 0 {
            claims = JSONObject(claims.dictionary.merging(["jti": .string((claims["jti"]?.stringValue ?? "") + "0")]) { $1 })
            payload = JSONSerializer.serialize(.object(claims))
        }
        var encoded = Array(Base64URL.encode(payload).utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        if let last = encoded.last, let index = alphabet.firstIndex(of: last) {
            // Two leftover bytes leave 2 unused bits; one leaves 4. Set the lowest.
            encoded[encoded.count - 1] = alphabet[index | 1]
        }
        let input = Base64URL.encode(JSONSerializer.serialize(.object(header))) + "." + String(decoding: encoded, as: UTF8.self)
        let signature = try signer.privateKey.sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }
}
