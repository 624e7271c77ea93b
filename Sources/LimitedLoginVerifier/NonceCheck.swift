import LimitedLoginCore

/// How a token's `nonce` is checked; always chosen explicitly for each verification.
public enum NonceCheck: Sendable, Equatable {
    /// The nonce must equal this value exactly (what the app passed to the login).
    case exact(String)
    /// The nonce must be the lowercase hex SHA-256 of this raw nonce (the Firebase convention: the app
    /// sends the hash to the login and keeps the raw value to prove it later).
    case sha256OfRawNonce(String)
    /// The nonce is not compared. Opt in only for tokens an SDK refreshed with a nonce of its own.
    case notChecked

    /// The value the token's nonce must equal, or nil when not checked.
    var expectedValue: String? {
        switch self {
        case .exact(let nonce): return nonce
        case .sha256OfRawNonce(let raw): return Self.sha256Hex(raw)
        case .notChecked: return nil
        }
    }

    /// Lowercase hex of SHA-256 over the UTF-8 bytes (`Nonce.sha256Hex(ofRaw:)` of LimitedLoginCore).
    public static func sha256Hex(_ text: String) -> String {
        Nonce.sha256Hex(ofRaw: text)
    }
}
