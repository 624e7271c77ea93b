import Crypto
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

/// One JWS test vector: a token and what each layer must say about it.
struct RS256JWSVector: Sendable, CustomTestStringConvertible {
    /// What ``CompactJWS`` says: the parse error, or that it parses and whether `key-1` signed it.
    enum Parse: Sendable, Equatable {
        case refused(JWSParseError)
        case parsed(signedByKey1: Bool)
    }

    /// Wycheproof's name for the case (`json_web_signature_test.json`, group `rs256`), or ours for additions.
    let name: String
    let token: String
    let parse: Parse
    /// The verifier's refusal, or nil when it accepts.
    let verification: TokenVerificationError?

    var testDescription: String { name }
}

/// Our own RS256 JWS vectors, covering the cases of Wycheproof's `rs256` JWS group (its file is not available
/// here, so none of its tokens are copied): tokens from ``TokenFactory`` (kid `key-1`, ``TestKeys/primary``),
/// taken apart and put together wrongly.
enum RS256JWSVectors {
    static let all: [RS256JWSVector] = build()

    private static func build() -> [RS256JWSVector] {
        let factory = TokenFactory()
        let token = factory.token()
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (h, p, s) = (parts[0], parts[1], parts[2])
        var vectors: [RS256JWSVector] = []
        func add(_ name: String, _ token: String, _ parse: RS256JWSVector.Parse, _ verification: TokenVerificationError?) {
            vectors.append(RS256JWSVector(name: name, token: token, parse: parse, verification: verification))
        }
        func encode(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

        add("acceptsValid", token, .parsed(signedByKey1: true), nil)
        add("rejectsModifiedSignature", "\(h).\(p).\(modified(s))", .parsed(signedByKey1: false), .invalidSignature)
        add("rejectsMissingSignature", "\(h).\(p).", .parsed(signedByKey1: false), .invalidSignature)
        add("rejectsMissingSignatureAndSeparator", "\(h).\(p)", .refused(.wrongSegmentCount(2)), .wrongSegmentCount(2))
        var otherClaims = factory.claims
        otherClaims["sub"] = "999"
        let otherPayload = Base64URL.encode(JSONSerializer.serialize(.object(otherClaims)))
        add("rejectsModifiedPayload", "\(h).\(otherPayload).\(s)", .parsed(signedByKey1: false), .invalidSignature)
        add("rejectsMissingPayload", "\(h)..\(s)", .refused(.invalidJSON(.payload, .unexpectedEnd)), .invalidJSON(.payload, .unexpectedEnd))
        add("rejectsMissingPayloadAndSeparator", "\(h).\(s)", .refused(.wrongSegmentCount(2)), .wrongSegmentCount(2))
        // Wycheproof changes one letter of the kid; here it names the other key in the set, which did not sign.
        let otherKeyHeader = encode(#"{"alg":"RS256","kid":"key-2","typ":"JWT"}"#)
        add("rejectsModifiedHeader", "\(otherKeyHeader).\(p).\(s)", .parsed(signedByKey1: false), .invalidSignature)
        add("rejectsMissingHeader", ".\(p).\(s)", .refused(.invalidJSON(.header, .unexpectedEnd)), .invalidJSON(.header, .unexpectedEnd))
        add("rejectsMissingHeaderAndSeparator", "\(p).\(s)", .refused(.wrongSegmentCount(2)), .wrongSegmentCount(2))
        add("rejectsMissingHeaderAndSignature", ".\(p).", .refused(.invalidJSON(.header, .unexpectedEnd)), .invalidJSON(.header, .unexpectedEnd))
        add("rejectsMissingHeaderSignatureAndSeparators", p, .refused(.wrongSegmentCount(1)), .wrongSegmentCount(1))
        add("rejectsEmptyString", "", .refused(.wrongSegmentCount(1)), .wrongSegmentCount(1))
        add("rejectsExtraEmptyComponent", "\(token).", .refused(.wrongSegmentCount(4)), .wrongSegmentCount(4))
        add("rejectsExtraComponent", "\(token).Zm9v", .refused(.wrongSegmentCount(4)), .wrongSegmentCount(4))
        let none = encode(#"{"alg":"none","kid":"key-1"}"#)
        add("rejectsNoneAlgorithmAndMissingSignature", "\(none).\(p).", .parsed(signedByKey1: false), .algorithmNotAllowed("none"))
        // The JSON serializations (RFC 7515 section 7.2) of the valid signature: general, then flattened.
        let general = #"{"payload":"\#(p)","signatures":[{"protected":"\#(h)","header":{"unknown":"untrustworthy"},"signature":"\#(s)"}]}"#
        add("rejectsValidJsonSerialization", general, .refused(.wrongSegmentCount(1)), .wrongSegmentCount(1))
        let flattened = #"{"payload":"\#(p)","protected":"\#(h)","signature":"\#(s)"}"#
        add("rejectsValidFlattenedJsonSerialization", flattened, .refused(.wrongSegmentCount(1)), .wrongSegmentCount(1))
        // HS256 keyed with the RSA public key, in each form a confused library might take it.
        let publicKey = factory.key.publicKey
        let jwkText = JSONSerializer.serialize(RSAJSONWebKey(publicKey: publicKey, keyID: "key-1").json)
        let hmacHeader = encode(#"{"alg":"HS256","kid":"key-1","typ":"JWT"}"#)
        for (form, secret) in [
            ("Pem", Array(publicKey.key.pemRepresentation.utf8)), ("Der", Array(publicKey.key.derRepresentation)),
            ("Modulus", publicKey.components().modulus), ("Jwk", jwkText),
        ] {
            let mac = HMAC<SHA256>.authenticationCode(for: Array("\(hmacHeader).\(p)".utf8), using: SymmetricKey(data: secret))
            add(
                "rejectsSymmetryConfusionAttacks_hmacKeyFromRsaPublicKey\(form)", "\(hmacHeader).\(p).\(Base64URL.encode(Array(mac)))",
                .parsed(signedByKey1: false), .algorithmNotAllowed("HS256"))
        }
        // An attacker's key embedded in the header, and the token signed with it: with our kid, and without one.
        var attacker = factory
        attacker.key = TestKeys.secondary
        let attackerJWK = String(
            decoding: JSONSerializer.serialize(RSAJSONWebKey(publicKey: TestKeys.secondary.publicKey, keyID: "key-1").json), as: UTF8.self)
        add(
            "rejectsAttackerProvidedEmbeddedJwk",
            attacker.token(headerText: #"{"alg":"RS256","kid":"key-1","jwk":\#(attackerJWK)}"#, payloadText: factory.claimsText),
            .parsed(signedByKey1: false), .forbiddenHeaderParameter("jwk"))
        add(
            "rejectsAttackerProvidedEmbeddedJwkWithoutKid",
            attacker.token(headerText: #"{"alg":"RS256","jwk":\#(attackerJWK)}"#, payloadText: factory.claimsText),
            .parsed(signedByKey1: false), .forbiddenHeaderParameter("jwk"))
        // Our addition: Wycheproof's own payload, "foo", correctly signed; a JWT's payload must be a JSON object.
        let foo = factory.token(headerText: factory.headerText, payloadText: "foo")
        add(
            "rejectsSignedPayloadThatIsNotJson", foo, .refused(.invalidJSON(.payload, .unexpectedByte(UInt8(ascii: "o"), offset: 1))),
            .invalidJSON(.payload, .unexpectedByte(UInt8(ascii: "o"), offset: 1)))
        vectors += paddingVectors(factory: factory, signingInput: "\(h).\(p)")
        return vectors
    }

    /// Signatures over EMSA-PKCS1-v1_5 encodings with one thing wrong (Wycheproof's `ModifiedPadding` cases
    /// are of this kind), plus the correct encoding made the same way, which must verify.
    private static func paddingVectors(factory: TokenFactory, signingInput: String) -> [RS256JWSVector] {
        let forgery = PKCS1Forgery(key: factory.key)
        let message = Array(signingInput.utf8)
        let digest = Array(SHA256.hash(data: message))
        let digestInfo = forgery.digestInfo(of: message)
        // The AlgorithmIdentifier without its NULL (Wycheproof's RSA files call it acceptable; refused here).
        let missingNull: [UInt8] = [0x30, 0x2F, 0x30, 0x0B] + PKCS1Forgery.sha256DigestInfoPrefix[4..<15] + [0x04, 0x20] + digest
        // The outer SEQUENCE's length in long form (BER, not DER).
        let longFormLength: [UInt8] = [0x30, 0x81, 0x31] + digestInfo.dropFirst(2)
        // SHA-512's OID (…04 02 03) in front of the SHA-256 digest.
        var otherHash = digestInfo
        otherHash[14] = 0x03
        var zeroInFill = forgery.encoded(digestInfo: digestInfo)
        zeroInFill[20] = 0x00
        let cases: [(String, [UInt8], TokenVerificationError?)] = [
            ("acceptsCorrectPaddingMadeWithRawRsa", forgery.encoded(digestInfo: digestInfo), nil),
            ("rejectsModifiedPadding_blockType02", forgery.encoded(blockType: 0x02, digestInfo: digestInfo), .invalidSignature),
            ("rejectsModifiedPadding_fillNotFF", forgery.encoded(fill: 0xFE, digestInfo: digestInfo), .invalidSignature),
            ("rejectsModifiedPadding_zeroInFill", zeroInFill, .invalidSignature),
            ("rejectsModifiedPadding_noSeparator", forgery.encoded(separator: 0xFF, digestInfo: digestInfo), .invalidSignature),
            ("rejectsModifiedPadding_missingNull", forgery.encoded(digestInfo: missingNull), .invalidSignature),
            ("rejectsModifiedPadding_lengthOfSequenceUsesLongFormEncoding", forgery.encoded(digestInfo: longFormLength), .invalidSignature),
            ("rejectsModifiedPadding_wrongHashAlgorithm", forgery.encoded(digestInfo: otherHash), .invalidSignature),
            ("rejectsModifiedPadding_garbageAfterDigest", forgery.encoded(digestInfo: digestInfo + [0x00, 0x00]), .invalidSignature),
        ]
        return cases.map { name, encoded, verification in
            let signature: [UInt8]
            do { signature = try forgery.sign(encoded: encoded) } catch { fatalError("raw RSA failed for \(name): \(error)") }
            return RS256JWSVector(
                name: name, token: "\(signingInput).\(Base64URL.encode(signature))",
                parse: .parsed(signedByKey1: verification == nil), verification: verification
            )
        }
    }

    /// The signature segment with its first byte changed.
    private static func modified(_ segment: String) -> String {
        guard var bytes = try? Base64URL.decode(segment), !bytes.isEmpty else { return segment }
        bytes[0] ^= 0x01
        return Base64URL.encode(bytes)
    }
}
