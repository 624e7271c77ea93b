import Foundation
import LimitedLoginCore

/// How the backend learns the nonce it expects, and so which nonces each request's token and template carry.
package enum AuditNonceMode: Sendable, Equatable {
    /// The audit was not told: tokens carry a fresh nonce, and the nonce cases do not run.
    case unknown
    /// `--nonce N`: the backend expects N.
    case fixed(String)
    /// `--raw-nonce R`: the backend hashes R and expects its SHA-256 hex.
    case fixedRaw(String)
    /// A template carries `{nonce}` (`raw: false`) or `{raw_nonce}` (`raw: true`): a fresh one per request.
    case perRequest(raw: Bool)

    /// True when the backend is told the nonce, so that the nonce cases mean something.
    package var isKnown: Bool { self != .unknown }
    /// True when the backend takes a raw nonce and hashes it.
    package var isRaw: Bool {
        switch self {
        case .fixedRaw, .perRequest(raw: true): return true
        default: return false
        }
    }

    /// Why a case needing `requirement` cannot run in this mode, or nil when it can.
    package func reasonNotRun(_ requirement: AuditRequirement) -> String? {
        switch requirement {
        case .none: return nil
        case .nonce:
            return isKnown
                ? nil
                : "the audit does not know how the backend gets the expected nonce: give --nonce or --raw-nonce, or put {nonce} or {raw_nonce} in a --header, --body, --form or --query"
        case .rawNonce:
            return isRaw ? nil : "the backend is not given a raw nonce to hash: give --raw-nonce, or put {raw_nonce} in a template"
        }
    }

    /// The nonces of one request: fresh ones when the mode takes them per request.
    package func nonces() -> AuditNonces {
        switch self {
        case .unknown, .perRequest(raw: false):
            let nonce = "audit-" + UUID().uuidString.lowercased()
            return AuditNonces(expected: nonce, raw: nonce)
        case .fixed(let nonce):
            return AuditNonces(expected: nonce, raw: nonce)
        case .fixedRaw(let raw):
            return AuditNonces(expected: Nonce.sha256Hex(ofRaw: raw), raw: raw)
        case .perRequest(raw: true):
            let raw = "audit-raw-" + UUID().uuidString.lowercased()
            return AuditNonces(expected: Nonce.sha256Hex(ofRaw: raw), raw: raw)
        }
    }
}

/// The nonces of one request: what the token's `nonce` claim must be (`expected`, `{nonce}`) and the raw
/// value the backend hashes (`raw`, `{raw_nonce}`).
package struct AuditNonces: Sendable {
    package let expected: String
    package let raw: String
}
