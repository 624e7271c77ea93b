import LimitedLoginJOSE

/// What `POST /_admin/scenarios` and the console's scenario form ask for, read from the JSON body
/// `{"app_id", "user"?, "outcome", "code"?, "message"?, "claims"?}` (`error` is accepted as a synonym the
/// API always took). Every fault of the body is refused here, naming the key.
struct ScenarioRequest: Sendable {
    var appID: String
    /// The test user (ID or email) whose next dialog it decides; nil: anyone's.
    var user: String?
    var outcome: Scenario.Outcome

    static let keys = ["app_id", "user", "outcome", "error", "code", "message", "claims"]

    init(_ body: JSONObject) throws(AdminError) {
        if let message = body.unknownKeyMessage(accepted: Self.keys) { throw AdminError.badRequest(message) }
        guard let appID = body["app_id"]?.stringValue, !appID.isEmpty else {
            throw AdminError.badRequest("Give \"app_id\": the app whose next dialog the scenario decides.")
        }
        self.appID = appID
        if let user = body["user"] {
            guard let name = user.stringValue else { throw AdminError.badRequest("\"user\" must be a test user's ID or email.") }
            self.user = name
        }
        switch Scenario.Outcome.parse(body) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let parsed): outcome = parsed
        }
    }
}
