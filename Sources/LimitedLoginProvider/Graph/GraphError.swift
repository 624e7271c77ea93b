import Hummingbird
import LimitedLoginJOSE

/// A Graph API error (docs/BEHAVIOUR.md, section 5): `{"error":{"message","type":"OAuthException","code","error_subcode","fbtrace_id"}}`.
struct GraphError: Error, Equatable, Sendable {
    let message: String
    let code: Int
    let subcode: Int?
    let status: HTTPResponse.Status
    /// `OAuthException` for the token's problems, `GraphMethodException` for a call's.
    let type: String

    init(_ message: String, code: Int, subcode: Int? = nil, status: HTTPResponse.Status = .badRequest, type: String = "OAuthException") {
        self.message = message
        self.code = code
        self.subcode = subcode
        self.status = status
        self.type = type
    }

    /// A person's token sent without `appsecret_proof` to an app that requires it ("Require App Secret").
    static let appSecretProofRequired = GraphError(
        "API calls from the server require an appsecret_proof argument", code: 100, type: "GraphMethodException"
    )
    /// An `appsecret_proof` that is not the HMAC-SHA256 of the token keyed with the app secret.
    static let invalidAppSecretProof = GraphError(
        "Invalid appsecret_proof provided in the API argument", code: 100, type: "GraphMethodException"
    )

    /// No access token, or something that is not one (an ID token among them): a limited login cannot
    /// call the Graph API.
    static let cannotParseToken = GraphError(
        "Invalid OAuth access token - Cannot parse access token", code: 190, status: .unauthorized
    )
    static let expiredToken = GraphError(
        "Error validating access token: Session has expired.", code: 190, subcode: 463, status: .unauthorized
    )
    static let invalidatedToken = GraphError(
        "Error validating access token: The user has not authorized application.", code: 190, subcode: 458,
        status: .unauthorized
    )

    /// A person's token for a Development-mode app on which the person has no role (any more): the app
    /// gets nothing for them, on any route (docs/BEHAVIOUR.md, section 2).
    static let developmentModeWithoutRole = GraphError(
        "Error validating access token: The app is in development mode and this person has no role on it.", code: 190, subcode: 458,
        status: .unauthorized
    )

    var response: Response {
        var error: [String: JSONValue] = [
            "message": .string(message), "type": .string(type), "code": .number(Double(code)),
            "fbtrace_id": .string(RandomIdentifiers.secret(byteCount: 8)),
        ]
        if let subcode { error["error_subcode"] = .number(Double(subcode)) }
        var response = Responses.json(.object(["error": .object(JSONObject(error))]), status: status)
        if code == 190 {
            response.headers[.wwwAuthenticate] = "OAuth \"Facebook Platform\" \"invalid_token\" \"\(message)\""
        }
        return response
    }
}
