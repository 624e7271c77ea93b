import Crypto
import LimitedLoginJOSE

/// `user_token_nonce`: an opaque value a dialog answer carries when `response_type` asks for it. The iOS SDK
/// keeps it (in the keychain) and sends it back as the `user_token_nonce` parameter of its next dialog
/// request, until `logOut()`. It is stable for a person and an app (an HMAC under a secret kept in the
/// store and read once at start, as the CSRF secret is), names neither, and the dialog accepts it back
/// without needing it: what the real service does with the returned value is not visible from the SDK.
struct UserTokenNonce: Sendable {
    static let secretSetting = "user_token_nonce_secret"

    private let key: SymmetricKey

    init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    func value(appID: String, userID: String) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Array("user_token_nonce|\(appID)|\(userID)".utf8), using: key)))
    }
}
