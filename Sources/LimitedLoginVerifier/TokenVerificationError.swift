import Foundation
import LimitedLoginJOSE

/// Every way an ID token can be refused; each case names one cause.
public enum TokenVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    // Form
    case tokenTooLarge(size: Int, limit: Int)
    case wrongSegmentCount(Int)
    case invalidBase64URL(JWSSegment, Base64URLError)
    case invalidJSON(JWSSegment, JSONParseError)
    case notAJSONObject(JWSSegment, foundType: String)
    // Header
    case missingAlgorithm
    case algorithmNotAllowed(String)
    case forbiddenHeaderParameter(String)
    case missingKeyID
    case invalidKeyID(String)
    case unsupportedType(String)
    // Key
    case unknownKey(String)
    case unusableKey(keyID: String, JWKError)
    case ambiguousKey(String)
    case keySetUnavailable(String)
    // Signature
    case invalidSignature
    // Claims
    case missingClaim(String)
    case invalidClaimType(String, expected: String)
    case emptyClaim(String)
    case issuerNotAllowed(String)
    /// `aud` is not the app ID of a verifier for one app.
    case audienceMismatch(expected: String, actual: String)
    /// `aud` is none of the app IDs of a verifier for several apps (`allowed`, in the configured order).
    case audienceNotAllowed(actual: String, allowed: [String])
    case expired(expiredAt: Date, now: Date)
    case issuedInFuture(issuedAt: Date, now: Date)
    case issuedTooLongAgo(issuedAt: Date, maximumAge: TimeInterval)
    /// `exp` is at or before `iat`: the token was never valid, whatever the clock says.
    case expiresNotAfterIssued(expiresAt: Date, issuedAt: Date)
    case nonceMismatch

    public var description: String {
        switch self {
        case .tokenTooLarge(let size, let limit):
            return "token too large: \(size) bytes, the limit is \(limit)"
        case .wrongSegmentCount(let count):
            return "not a compact JWS: expected 3 segments separated by '.', found \(count)"
        case .invalidBase64URL(let segment, let error):
            return "malformed \(segment.rawValue): \(error)"
        case .invalidJSON(let segment, let error):
            return "malformed \(segment.rawValue) JSON: \(error)"
        case .notAJSONObject(let segment, let type):
            return "malformed \(segment.rawValue): a JSON object is required, found \(type)"
        case .missingAlgorithm:
            return "the header has no \"alg\"; only RS256 is accepted"
        case .algorithmNotAllowed(let alg):
            return "algorithm \"\(alg)\" is not allowed; only RS256 is accepted"
        case .forbiddenHeaderParameter(let name):
            return "header parameter \"\(name)\" is not accepted (keys come only from the configured key set)"
        case .missingKeyID:
            return "the header has no \"kid\", so no key can be chosen"
        case .invalidKeyID(let reason):
            return "invalid \"kid\": \(reason)"
        case .unsupportedType(let type):
            return "header \"typ\" is \"\(type)\"; only \"JWT\" is accepted"
        case .unknownKey(let keyID):
            return "no key with kid \"\(keyID)\" in the key set, even after refetching it"
        case .unusableKey(let keyID, let error):
            return "the key \"\(keyID)\" cannot verify RS256 tokens: \(error)"
        case .ambiguousKey(let keyID):
            return "the key set holds more than one key with kid \"\(keyID)\""
        case .keySetUnavailable(let reason):
            return "the key set could not be fetched: \(reason)"
        case .invalidSignature:
            return "the signature does not match the token (tampered, or signed by another key)"
        case .missingClaim(let name):
            return "the token has no \"\(name)\" claim"
        case .invalidClaimType(let name, let expected):
            return "the \"\(name)\" claim must be a \(expected)"
        case .emptyClaim(let name):
            return "the \"\(name)\" claim is empty"
        case .issuerNotAllowed(let issuer):
            return "issuer \"\(issuer)\" is not one of the allowed issuers"
        case .audienceMismatch(let expected, let actual):
            return "the token is for app \"\(actual)\", not \"\(expected)\""
        case .audienceNotAllowed(let actual, let allowed):
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            return "the token is for app \"\(actual)\", not one of \(list)"
        case .expired(let expiredAt, let now):
            return "the token expired at \(Self.format(expiredAt)) (now \(Self.format(now)))"
        case .issuedInFuture(let issuedAt, let now):
            return "the token is issued in the future, at \(Self.format(issuedAt)) (now \(Self.format(now))); check the clocks"
        case .issuedTooLongAgo(let issuedAt, let maximumAge):
            // Formatted, not converted to Int: a configured maximum age need only be finite.
            return "the token was issued at \(Self.format(issuedAt)), more than \(String(format: "%.0f", maximumAge)) s ago"
        case .expiresNotAfterIssued(let expiresAt, let issuedAt):
            return "the token expires at \(Self.format(expiresAt)), not after it was issued at \(Self.format(issuedAt)); "
                + "such a token was never valid: the issuer must set \"exp\" after \"iat\""
        case .nonceMismatch:
            return "the token's nonce does not match the expected nonce"
        }
    }

    private static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

extension TokenVerificationError {
    init(_ error: JWSParseError) {
        switch error {
        case .tooLarge(let size, let limit): self = .tokenTooLarge(size: size, limit: limit)
        case .wrongSegmentCount(let count): self = .wrongSegmentCount(count)
        case .invalidBase64URL(let segment, let reason): self = .invalidBase64URL(segment, reason)
        case .invalidJSON(let segment, let reason): self = .invalidJSON(segment, reason)
        case .notAnObject(let segment, let type): self = .notAJSONObject(segment, foundType: type)
        }
    }
}

extension TokenVerificationError {
    /// A stable snake_case name for the cause, for logs and JSON output.
    public var code: String {
        switch self {
        case .tokenTooLarge: return "token_too_large"
        case .wrongSegmentCount: return "wrong_segment_count"
        case .invalidBase64URL: return "invalid_base64url"
        case .invalidJSON: return "invalid_json"
        case .notAJSONObject: return "not_a_json_object"
        case .missingAlgorithm: return "missing_algorithm"
        case .algorithmNotAllowed: return "algorithm_not_allowed"
        case .forbiddenHeaderParameter: return "forbidden_header_parameter"
        case .missingKeyID: return "missing_key_id"
        case .invalidKeyID: return "invalid_key_id"
        case .unsupportedType: return "unsupported_type"
        case .unknownKey: return "unknown_key"
        case .unusableKey: return "unusable_key"
        case .ambiguousKey: return "ambiguous_key"
        case .keySetUnavailable: return "key_set_unavailable"
        case .invalidSignature: return "invalid_signature"
        case .missingClaim: return "missing_claim"
        case .invalidClaimType: return "invalid_claim_type"
        case .emptyClaim: return "empty_claim"
        case .issuerNotAllowed: return "issuer_not_allowed"
        case .audienceMismatch: return "audience_mismatch"
        case .audienceNotAllowed: return "audience_not_allowed"
        case .expired: return "expired"
        case .issuedInFuture: return "issued_in_future"
        case .issuedTooLongAgo: return "issued_too_long_ago"
        case .expiresNotAfterIssued: return "expires_not_after_issued"
        case .nonceMismatch: return "nonce_mismatch"
        }
    }
}
