/// How a case's answer is judged.
package enum AuditSeverity: String, Sendable {
    /// A good token: the backend must accept it (else the audit proves nothing, or logins fail).
    case mustAccept = "must-accept"
    /// A good token in a harder situation (the keys just rotated): refusing it is an outage, not a hole.
    case shouldAccept = "should-accept"
    /// A hole when accepted: a forged, expired, foreign or unsigned token.
    case mustRefuse = "must-refuse"
    /// A leniency the standards allow, but a strict backend refuses.
    case shouldRefuse = "should-refuse"

    package var expectsAcceptance: Bool { self == .mustAccept || self == .shouldAccept }
}

/// What a case needs from the command line before it can run.
package enum AuditRequirement: Sendable {
    case none
    /// The backend must know the expected nonce: `--nonce`, `--raw-nonce`, or `{nonce}` / `{raw_nonce}` in a template.
    case nonce
    /// The backend must take a raw nonce it hashes: `--raw-nonce` or `{raw_nonce}` in a template.
    case rawNonce
}

/// One token the audit sends to a backend, named, with the rule it tests and what a backend should do.
package enum AuditCase: String, CaseIterable, Sendable {
    case valid
    // Claims.
    case expired
    case expiredPastLeeway = "expired-past-leeway"
    case noExp = "no-exp"
    case noIat = "no-iat"
    case emptySub = "empty-sub"
    case emptyJti = "empty-jti"
    case issuedInFuture = "issued-in-future"
    case tooOld = "too-old"
    case wrongAudience = "wrong-audience"
    case audienceList = "audience-list"
    case wrongIssuer = "wrong-issuer"
    case issuerPrefix = "issuer-prefix"
    case issuerSuffix = "issuer-suffix"
    // Nonce.
    case wrongNonce = "wrong-nonce"
    case noNonce = "no-nonce"
    case rawNonceUnhashed = "raw-nonce-unhashed"
    // Signature.
    case badSignature = "bad-signature"
    case truncatedSignature = "truncated-signature"
    case paddedSignature = "padded-signature"
    case signatureFromOtherToken = "signature-from-other-token"
    case signaturePadded = "signature-base64-padding"
    case signatureStandardBase64 = "signature-standard-base64"
    // Keys.
    case unknownKey = "unknown-key"
    case kidNamesAnotherKey = "kid-names-another-key"
    case missingKid = "missing-kid"
    // Algorithms.
    case algNone = "alg-none"
    case algNoneUppercase = "alg-none-uppercase"
    case hs256PublicKey = "hs256-public-key"
    case hs256PublicKeyPEMNewline = "hs256-public-key-pem-newline"
    case hs256PublicKeyDER = "hs256-public-key-der"
    case hs512PublicKey = "hs512-public-key"
    case rs512SameKey = "rs512-same-key"
    // Header parameters.
    case critHeader = "crit-header"
    case jwkHeader = "jwk-header"
    case jkuHeader = "jku-header"
    case x5uHeader = "x5u-header"
    case x5cHeader = "x5c-header"
    case typNotJWT = "typ-not-jwt"
    // Encoding.
    case duplicateClaim = "duplicate-claim"
    case nonCanonicalBase64URL = "non-canonical-base64url"
    case hugeToken = "huge-token"
    case extraSegment = "extra-segment"
    case whitespaceInSignature = "whitespace-in-signature"
    case payloadNotObject = "payload-not-object"

    package var severity: AuditSeverity {
        switch self {
        case .valid: return .mustAccept
        case .issuedInFuture, .tooOld, .noIat, .emptySub, .emptyJti, .audienceList, .paddedSignature, .signaturePadded,
            .signatureStandardBase64, .missingKid, .rs512SameKey, .critHeader, .duplicateClaim, .nonCanonicalBase64URL, .hugeToken,
            .extraSegment, .whitespaceInSignature, .typNotJWT:
            return .shouldRefuse
        default: return .mustRefuse
        }
    }

    package var requirement: AuditRequirement {
        switch self {
        case .wrongNonce, .noNonce: return .nonce
        case .rawNonceUnhashed: return .rawNonce
        default: return .none
        }
    }

    /// What the token is.
    package var summary: String {
        switch self {
        case .valid: return "a good token for the app, from the provider's current key"
        case .expired: return "exp 10 minutes past"
        case .expiredPastLeeway: return "exp 61 seconds past: 1 s beyond a 60 s leeway"
        case .noExp: return "no exp claim: a token that never expires"
        case .noIat: return "no iat claim"
        case .emptySub: return "sub is an empty string: no one"
        case .emptyJti: return "jti is an empty string: a token with no identifier"
        case .issuedInFuture: return "iat 10 minutes ahead"
        case .tooOld: return "iat 70 minutes ago, exp still ahead"
        case .wrongAudience: return "a token the provider signed for another app (aud another app's ID)"
        case .audienceList: return "aud a list of the app and another app"
        case .wrongIssuer: return "iss is https://issuer.invalid"
        case .issuerPrefix: return "iss is the provider's issuer followed by .evil.example: it begins with the issuer"
        case .issuerSuffix: return "iss is https://evil.example/ followed by the provider's issuer: it ends with the issuer"
        case .wrongNonce: return "nonce differs from the one the backend expects"
        case .noNonce: return "no nonce claim, while the backend expects one"
        case .rawNonceUnhashed: return "the nonce claim is the raw nonce itself, not its SHA-256"
        case .badSignature: return "one bit of the signature flipped"
        case .truncatedSignature: return "the signature's last byte removed"
        case .paddedSignature: return "the signature with a zero byte in front (257 bytes; the same number)"
        case .signatureFromOtherToken: return "another user's claims under this token's header and signature"
        case .signaturePadded: return "the signature segment ends in base64 padding (=); the same bytes"
        case .signatureStandardBase64: return "the signature segment in standard base64 (+ and /, not - and _); the same bytes"
        case .unknownKey: return "signed by a key the key set does not publish"
        case .kidNamesAnotherKey: return "signed by an attacker's key, kid naming the provider's key"
        case .missingKid: return "no kid in the header"
        case .algNone: return "alg none, no signature"
        case .algNoneUppercase: return "alg NONE, no signature"
        case .hs256PublicKey: return "alg HS256, HMAC keyed with the public key's PEM (no final newline)"
        case .hs256PublicKeyPEMNewline: return "alg HS256, HMAC keyed with the public key's PEM ending in a newline (as OpenSSL writes it)"
        case .hs256PublicKeyDER: return "alg HS256, HMAC keyed with the public key's DER"
        case .hs512PublicKey: return "alg HS512, HMAC keyed with the public key's PEM ending in a newline"
        case .rs512SameKey: return "alg RS512, signed with the provider's own key"
        case .critHeader: return "crit names an extension no one understands; signature valid"
        case .typNotJWT: return "typ at+jwt, an access token's type; signature valid"
        case .payloadNotObject: return "the payload is a JSON array holding the claims, not an object; signature valid"
        case .jwkHeader: return "signed by an attacker's key, embedded in the header as jwk"
        case .jkuHeader: return "signed by an attacker's key, its key set named by jku"
        case .x5uHeader: return "signed by an attacker's key, its certificate named by x5u"
        case .x5cHeader: return "signed by an attacker's key, its certificate embedded in the header as x5c"
        case .duplicateClaim: return "sub twice, the second another user's; signature valid"
        case .nonCanonicalBase64URL: return "payload base64url with non-zero unused bits; signature valid over it"
        case .hugeToken: return "a 48 KiB claim: a token of about 66 KB, signature valid"
        case .extraSegment: return "a good token with a fourth segment after it (.e30)"
        case .whitespaceInSignature: return "a space in the middle of the signature segment; the same bytes without it"
        }
    }

    /// The rule the case tests: the validation page's step or the standard's section.
    package var rule: String {
        switch self {
        case .valid: return "Validation: a token that passes every check is accepted"
        case .expired, .expiredPastLeeway: return "Validation: exp; RFC 7519 section 4.1.4"
        case .noExp: return "Validation: exp; OIDC Core 2 (exp is required)"
        case .noIat: return "OIDC Core 2 (iat is required)"
        case .emptySub: return "OIDC Core 2 (sub identifies the person: never empty)"
        case .emptyJti: return "RFC 7519 section 4.1.7 (jti identifies the token: never empty)"
        case .issuedInFuture, .tooOld: return "OIDC Core 3.1.3.7 step 10 (iat); RFC 8725 section 3.10"
        case .wrongAudience: return "Validation: aud is your app ID; RFC 8725 section 3.9"
        case .audienceList: return "OIDC Core 3.1.3.7 step 3 (no audience the app does not trust)"
        case .wrongIssuer: return "Validation: iss; RFC 8725 section 3.8"
        case .issuerPrefix, .issuerSuffix: return "Validation: iss, compared exactly (never a prefix or suffix match); RFC 8725 section 3.8"
        case .wrongNonce, .noNonce: return "Validation: nonce; OIDC Core 3.1.3.7 step 11"
        case .rawNonceUnhashed: return "Validation: nonce is the SHA-256 of the raw nonce the app kept"
        case .badSignature, .truncatedSignature, .signatureFromOtherToken: return "Validation: RS256 signature; RFC 7515 section 5.2"
        case .paddedSignature: return "RFC 7518 section 3.3 (the signature is exactly the key's length)"
        case .signaturePadded, .signatureStandardBase64: return "RFC 7515 section 2 (base64url without padding)"
        case .unknownKey: return "Validation: the key named by kid, from the provider's key set"
        case .kidNamesAnotherKey: return "Validation: the signature by the key kid names; RFC 8725 section 3.1"
        case .missingKid: return "Validation: the key named by kid"
        case .algNone, .algNoneUppercase: return "RFC 8725 section 3.1 (alg none); only RS256"
        case .hs256PublicKey, .hs256PublicKeyPEMNewline, .hs256PublicKeyDER, .hs512PublicKey:
            return "RFC 8725 section 3.1 (key confusion); only RS256"
        case .rs512SameKey: return "Validation: RS256 only; RFC 8725 section 3.1"
        case .critHeader: return "RFC 7515 section 4.1.11 (crit)"
        case .typNotJWT: return "RFC 8725 section 3.11 (explicit typing); RFC 7519 section 5.1 (typ)"
        case .payloadNotObject: return "Validation: the payload is a valid JSON object; RFC 7519 section 7.2"
        case .jwkHeader, .jkuHeader, .x5uHeader, .x5cHeader: return "RFC 8725 section 3.10 (keys only from the provider's set)"
        case .duplicateClaim: return "RFC 7519 section 4; RFC 8259 section 4 (names should be unique)"
        case .nonCanonicalBase64URL: return "RFC 7515 section 2 and RFC 4648 section 3.5 (canonical encoding)"
        case .hugeToken: return "RFC 8725 section 3.11 (bounded input)"
        case .extraSegment: return "RFC 7515 section 7.1 (exactly three segments)"
        case .whitespaceInSignature: return "RFC 7515 section 2 (base64url: no whitespace)"
        }
    }

    /// What a backend should do.
    package var advice: String {
        switch self {
        case .valid: return "accept it: if it is refused, check the app ID, the issuer and the key set URL the backend uses"
        case .expired, .expiredPastLeeway: return "refuse when now > exp + leeway (60 s at most)"
        case .noExp: return "refuse a token without exp"
        case .noIat: return "refuse a token without iat (its age cannot be judged)"
        case .emptySub: return "refuse a token whose sub is missing or empty"
        case .emptyJti: return "refuse a token whose jti is missing or empty"
        case .issuedInFuture: return "refuse when iat > now + leeway"
        case .tooOld: return "refuse a token issued longer ago than you accept (an hour, as the iOS SDK)"
        case .wrongAudience: return "refuse unless aud is exactly your app ID"
        case .audienceList: return "refuse a list of audiences, or any audience you do not trust"
        case .wrongIssuer: return "refuse unless iss is the provider's issuer"
        case .issuerPrefix, .issuerSuffix: return "compare iss with the issuer exactly, byte for byte, never with hasPrefix, hasSuffix or contains"
        case .wrongNonce, .noNonce: return "compare the nonce claim with the one the app sent, and refuse when missing"
        case .rawNonceUnhashed: return "hash the raw nonce the app sends (SHA-256, hex) and compare that, never the raw value"
        case .badSignature, .truncatedSignature, .signatureFromOtherToken: return "verify the RS256 signature over header.payload"
        case .paddedSignature: return "refuse a signature that is not exactly the key's length"
        case .signaturePadded, .signatureStandardBase64: return "decode each segment as strict base64url: no padding, no + or /"
        case .unknownKey: return "refuse a kid the provider's key set does not hold (refetch the set once first)"
        case .kidNamesAnotherKey: return "verify with the key kid names, and refuse when it fails"
        case .missingKid: return "refuse a token without kid rather than trying every key"
        case .algNone, .algNoneUppercase, .hs256PublicKey, .hs256PublicKeyPEMNewline, .hs256PublicKeyDER, .hs512PublicKey, .rs512SameKey:
            return "accept RS256 only, set by the backend, never taken from the token's header"
        case .critHeader: return "refuse a token whose crit names an extension you do not implement"
        case .typNotJWT: return "refuse a typ other than JWT, so that a token of another kind signed by the same key is not taken for an ID token"
        case .payloadNotObject: return "refuse a payload that is not a JSON object before reading any claim"
        case .jwkHeader, .jkuHeader, .x5uHeader, .x5cHeader:
            return "take keys only from the provider's key set; ignore jwk, jku, x5u and x5c (or refuse them)"
        case .duplicateClaim: return "refuse JSON with a name twice (a parser that keeps the last sees another user)"
        case .nonCanonicalBase64URL: return "refuse base64url with non-zero unused bits"
        case .hugeToken: return "refuse tokens over a few kilobytes before parsing them"
        case .extraSegment: return "refuse a token that is not exactly three segments"
        case .whitespaceInSignature: return "decode each segment as strict base64url: no whitespace"
        }
    }
}

extension AuditCase {
    /// The cases whose token names a URL of the attacker's server (``AuditAttacker``), which the backend must be
    /// able to fetch for the case to test it.
    package var needsAttackerServer: Bool { self == .jkuHeader || self == .x5uHeader }
}
