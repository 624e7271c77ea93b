import Crypto
import LimitedLoginJOSE

/// `user_token_nonce`: an opaque value a dialog answer carries when `response_type` asks for it. The iOS SDK
/// keeps it (in the keychain) and sends it back as the `user_token_nonce` parameter of its next dialog
/// request, until `logOut()`. It is stable for a person and an app (an HMAC under a secret kept in the
/// store), names neither, and the dialog accepts it back without needing it: what the real service does
/// with the returned value is not visible from the SDK.
enum UserTokenNonce {
    static let secretSetting = "user_token_nonce_secret"

    static func value(appID: String, userID: String, store: ProviderStore) async throws -> String {
        let secret = try await store.setting(secretSetting) { RandomIdentifiers.secret() }
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("user_token_nonce|\(appID)|\(userID)".utf8), using: SymmetricKey(data: Array(secret.utf8))
        )
        return Base64URL.encode(Array(mac))
    }
}
