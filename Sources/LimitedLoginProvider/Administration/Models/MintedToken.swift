/// What minting made (``AdminOperations/mintToken(_:)``): the ID token with its claims, the access token of
/// a classic login, the permissions granted and the defect put in. Encoded, the answer of `POST
/// /_admin/tokens`: `{"id_token", "claims", "granted_scopes", "access_token"?, "expires_in"?,
/// "data_access_expiration_time"?, "defect"?}`.
struct MintedToken: Sendable, Encodable {
    var idToken: IssuedIDToken
    var accessToken: IssuedAccessToken?
    var grantedScopes: [String]
    var defect: TokenDefect?

    private enum CodingKeys: String, CodingKey {
        case claims, defect
        case idToken = "id_token"
        case grantedScopes = "granted_scopes"
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case dataAccessExpirationTime = "data_access_expiration_time"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(idToken.token, forKey: .idToken)
        try container.encode(CodableJSONValue(.object(idToken.claims)), forKey: .claims)
        try container.encode(grantedScopes, forKey: .grantedScopes)
        if let accessToken {
            try container.encode(accessToken.token, forKey: .accessToken)
            try container.encode(accessToken.expiresIn, forKey: .expiresIn)
            try container.encode(accessToken.dataAccessExpiresAt, forKey: .dataAccessExpirationTime)
        }
        try container.encodeIfPresent(defect?.rawValue, forKey: .defect)
    }
}
