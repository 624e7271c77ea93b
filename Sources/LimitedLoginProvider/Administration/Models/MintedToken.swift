import LimitedLoginJOSE

/// What minting made (``AdminOperations/mintToken(_:)``): the ID token with its claims, the access token of
/// a classic login, the permissions granted and the defect put in.
struct MintedToken: Sendable {
    var idToken: IssuedIDToken
    var accessToken: IssuedAccessToken?
    var grantedScopes: [String]
    var defect: TokenDefect?

    /// The answer of `POST /_admin/tokens`: `{"id_token", "claims", "granted_scopes", "access_token"?,
    /// "expires_in"?, "data_access_expiration_time"?, "defect"?}`.
    var json: JSONObject {
        var answer: JSONObject = [
            "id_token": .string(idToken.token), "claims": .object(idToken.claims), "granted_scopes": .array(grantedScopes.map(JSONValue.string)),
        ]
        if let accessToken {
            answer["access_token"] = .string(accessToken.token)
            answer["expires_in"] = .number(Double(accessToken.expiresIn))
            answer["data_access_expiration_time"] = .number(Double(accessToken.dataAccessExpiresAt))
        }
        if let defect { answer["defect"] = .string(defect.rawValue) }
        return answer
    }
}
