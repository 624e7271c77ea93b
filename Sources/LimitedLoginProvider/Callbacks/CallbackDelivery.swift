import LimitedLoginJOSE

/// One post of a `signed_request` to an app's callback URL, with every attempt's outcome
/// (docs/BEHAVIOUR.md, section 4): what the console and `GET /_admin/deliveries` show.
package struct CallbackDelivery: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// The person removed the app: the Deauthorize Callback URL.
        case deauthorize
        /// The person asked for their data to be deleted: the Data Deletion Request Callback URL.
        case dataDeletion = "data_deletion"
    }

    package enum Status: String, Sendable {
        /// Not delivered yet; tried again at `nextAttemptAt`.
        case pending
        /// The app answered as it must (2xx; for a data deletion, `{"url", "confirmation_code"}`).
        case delivered
        /// Every attempt failed; `lastError` says how the last one did.
        case failed
    }

    package var id: String
    package var appID: String
    package var kind: Kind
    /// The person, by their provider-wide ID (the posted `signed_request` carries the app-scoped one).
    package var userID: String
    package var url: String
    package var signedRequest: String
    package var status: Status
    package var attempts: Int
    package var nextAttemptAt: Int64?
    package var lastError: String?
    /// The HTTP status of the last answer, if one came.
    package var responseStatus: Int?
    /// A data deletion's answer: where the person follows the deletion, and its code.
    package var confirmationCode: String?
    package var statusURL: String?
    package var createdAt: Int64
    package var updatedAt: Int64

    /// As `GET /_admin/deliveries` lists it.
    var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "app_id": .string(appID), "kind": .string(kind.rawValue), "user_id": .string(userID),
            "url": .string(url), "status": .string(status.rawValue), "attempts": .number(Double(attempts)),
            "created_at": .number(Double(createdAt)), "updated_at": .number(Double(updatedAt)),
        ]
        if let nextAttemptAt { object["next_attempt_at"] = .number(Double(nextAttemptAt)) }
        if let lastError { object["last_error"] = .string(lastError) }
        if let responseStatus { object["response_status"] = .number(Double(responseStatus)) }
        if let confirmationCode { object["confirmation_code"] = .string(confirmationCode) }
        if let statusURL { object["status_url"] = .string(statusURL) }
        return .object(object)
    }
}
