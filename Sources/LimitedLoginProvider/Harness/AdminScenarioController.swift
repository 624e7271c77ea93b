import Hummingbird
import LimitedLoginJOSE

/// `POST|GET|DELETE /_admin/scenarios`: outcomes queued for the next dialogs (docs/BEHAVIOUR.md, section 9).
///
/// `POST {"app_id": "…", "user": "alice@example.com" (optional), "outcome": "cancel"}` (or `"error"` with
/// `"code"` and `"message"`, or `"claims"` with `"claims": {…}`); `GET` lists them in order; `DELETE`
/// (optionally `?app_id=…`) clears them.
struct AdminScenarioController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/scenarios") { request, _ in list() }
        router.post("/_admin/scenarios") { request, _ in try await add(request) }
        router.delete("/_admin/scenarios") { request, _ in clear(request) }
    }

    private func list() -> Response {
        Responses.json(.object(["scenarios": .array(services.scenarios.all.map(\.json))]))
    }

    private func add(_ request: Request) async throws -> Response {
        let body: JSONObject
        switch await AdminJSONBody.read(request, limit: services.configuration.maximumBodySize) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let object): body = object
        }
        if let message = body.unknownKeyMessage(accepted: ["app_id", "user", "outcome", "error", "code", "message", "claims"]) {
            throw AdminError.badRequest(message)
        }
        guard let appID = body["app_id"]?.stringValue, !appID.isEmpty else {
            throw AdminError.badRequest("Give \"app_id\": the app whose next dialog the scenario decides.")
        }
        guard try await services.store.app(id: appID) != nil else {
            throw AdminError.notFound("No app with ID \(appID).")
        }
        var userID: String?
        if let user = body["user"] {
            guard let name = user.stringValue, let found = try await services.store.user(idOrEmail: name) else {
                throw AdminError.notFound("No test user \(body["user"]?.stringValue ?? "(not a string)") (give an ID or an email).")
            }
            userID = found.id
        }
        let outcome: Scenario.Outcome
        switch Scenario.Outcome.parse(body) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let parsed): outcome = parsed
        }
        guard let scenario = services.scenarios.add(appID: appID, userID: userID, outcome: outcome) else {
            throw AdminError.conflict("\(ScenarioQueue.capacity) scenarios are queued already; clear them first.")
        }
        services.logger.info("scenario queued", metadata: ["app": "\(appID)", "scenario": "\(scenario.id)"])
        return Responses.json(scenario.json, status: .created)
    }

    private func clear(_ request: Request) -> Response {
        let appID = request.uri.queryParameters.get("app_id")
        let removed = AdminOperations(services: services).clearScenarios(appID: appID)
        return Responses.json(.object(["removed": .number(Double(removed))]))
    }
}
