import Crypto
import LimitedLoginJOSE

/// A Facebook `signed_request`: `base64url(HMAC-SHA256(payload, app secret)) "." payload`, where the payload
/// is the base64url of a JSON object with `"algorithm": "HMAC-SHA256"`, `issued_at` and, for a login,
/// `user_id` (the app-scoped ID) and the login's `code` when one was issued. The iOS SDK reads `user_id`
/// from it for `AccessToken.userID`; an app's server checks the signature with the app secret.
enum SignedRequest {
    static func make(userID: String, code: String?, issuedAt: Int64, secret: String) -> String {
        var payload: JSONObject = [
            "algorithm": "HMAC-SHA256", "issued_at": .number(Double(issuedAt)), "user_id": .string(userID),
        ]
        if let code { payload["code"] = .string(code) }
        let encoded = Base64URL.encode(JSONSerializer.serialize(.object(payload)))
        let signature = HMAC<SHA256>.authenticationCode(for: Array(encoded.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return Base64URL.encode(Array(signature)) + "." + encoded
    }
}
