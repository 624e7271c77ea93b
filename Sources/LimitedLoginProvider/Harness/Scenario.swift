import LimitedLoginJOSE

/// What the next dialog for an app (optionally a person) does, queued through `POST /_admin/scenarios`
/// (docs/BEHAVIOUR.md, section 9; mock-oauth2-server's queued callbacks): each is used once, in order.
public struct Scenario: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The dialog answers as if the person pressed Cancel.
        case cancel
        /// The dialog answers with this error (`error`, `error_code`, `error_message`).
        case error(error: String, code: Int, message: String)
        /// The login succeeds with these profile claims replaced in the ID token (`null` removes one).
        case claims(JSONObject)
    }

    /// Claims a scenario may not replace: they decide whether the token is authentic, not who the person
    /// is. A wrong token is minted with a defect instead (`POST /_admin/tokens`).
    public static let protectedClaims: Set<String> = ["iss", "aud", "sub", "iat", "exp", "jti", "nonce", "at_hash", "auth_time", "azp"]

    public let id: Int
    public let appID: String
    /// The provider user ID it is for; nil: whoever signs in.
    public let userID: String?
    public let outcome: Outcome

    /// The admin API's JSON form.
    var json: JSONValue {
        var object: [String: JSONValue] = ["id": .number(Double(id)), "app_id": .string(appID)]
        if let userID { object["user_id"] = .string(userID) }
        switch outcome {
        case .cancel:
            object["outcome"] = "cancel"
        case .error(let error, let code, let message):
            object["outcome"] = "error"
            object["error"] = .string(error)
            object["code"] = .number(Double(code))
            object["message"] = .string(message)
        case .claims(let claims):
            object["outcome"] = "claims"
            object["claims"] = .object(claims)
        }
        return .object(JSONObject(object))
    }
}

extension Scenario.Outcome {
    /// Reads `{"outcome":"cancel"}`, `{"outcome":"error","code":…,"message":…}` or
    /// `{"outcome":"claims","claims":{…}}`; the message says what is wrong.
    static func parse(_ body: JSONObject) -> Result<Scenario.Outcome, AdminBodyError> {
        switch body["outcome"]?.stringValue {
        case "cancel"?:
            return .success(.cancel)
        case "error"?:
            guard let message = body["message"]?.stringValue, !message.isEmpty else {
                return .failure(AdminBodyError("An error scenario needs a non-empty \"message\"."))
            }
            let code: Int
            switch body["code"] {
            case nil: code = 1
            case .number(let number)? where number == number.rounded() && abs(number) < 1e9: code = Int(number)
            default: return .failure(AdminBodyError("\"code\" must be a whole number (the error_code the app receives)."))
            }
            let error = body["error"]?.stringValue ?? "server_error"
            guard !error.isEmpty, error.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                return .failure(AdminBodyError("\"error\" must be a short code without spaces, e.g. server_error."))
            }
            return .success(.error(error: error, code: code, message: message))
        case "claims"?:
            guard case .object(let claims)? = body["claims"], !claims.isEmpty else {
                return .failure(AdminBodyError("A claims scenario needs a non-empty \"claims\" object, e.g. {\"email\":\"x@example.com\"}."))
            }
            if let name = claims.keys.sorted().first(where: Scenario.protectedClaims.contains) {
                return .failure(
                    AdminBodyError(
                        "The claim \"\(name)\" cannot be replaced by a scenario; mint a wrong token with a defect instead (POST /_admin/tokens)."
                    ))
            }
            return .success(.claims(claims))
        case let other?:
            return .failure(AdminBodyError("Unknown outcome \"\(other)\"; use cancel, error or claims."))
        case nil:
            return .failure(AdminBodyError("Give \"outcome\": cancel, error or claims."))
        }
    }
}
