import Crypto
import LimitedLoginJOSE

/// CSRF tokens for the dialog's forms: HMAC-SHA256 of the form's purpose and the browser's binding (the
/// session for consent, a per-browser cookie for sign-in), under a secret kept in the store so that every
/// node accepts every node's forms.
struct CSRFProtection: Sendable {
    enum Purpose: String, Sendable {
        case signIn = "sign-in"
        case consent
    }

    private let key: SymmetricKey

    init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    func token(for purpose: Purpose, binding: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(purpose.rawValue)|\(binding)".utf8), using: key)
        return Base64URL.encode(Array(mac))
    }

    /// True when `token` was made for this purpose and binding (compared in constant time).
    func isValid(_ token: String?, for purpose: Purpose, binding: String?) -> Bool {
        guard let token, let binding, let bytes = try? Base64URL.decode(token) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(bytes, authenticating: Array("\(purpose.rawValue)|\(binding)".utf8), using: key)
    }
}
