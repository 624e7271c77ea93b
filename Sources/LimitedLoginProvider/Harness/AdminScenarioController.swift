import Hummingbird
import LimitedLoginJOSE

/// `POST|GET|DELETE /_admin/scenarios`: outcomes queued for the next dialogs (SPEC section 9).
///
/// `POST {"app_id": "…", "user": "alice@example.com" (optional), "outcome": "cancel"}` (or `"error"` with
/// `"code"` and `"message"`, or `"claims"` with `"claims": {…}`); `GET` lists them in order; `DELETE`
/// (optionally `?app_id=…`) clears them.
struct AdminScenarioController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: Router<Context>, guarded: @escaping AdminGuard) {
        router.get("/_admin/scenarios") { request, _ in try await guarded(request) { list() } }
        router.post("/_admin/scenarios") { request, _ in try await guarded(request) { try await add(request) } }
        router.delete("/_admin/scenarios") { request, _ in try await guarded(request) { clear(request) } }
    }

    private func list() -> Response {
        Responses.json(.object(["scenarios": .array(services.scenarios.all.map(\.json))]))
    }

    private func add(_ request: Request) async throws -> Response {
        let body: JSONObject
        switch await AdminJSONBody.read(request, limit: services.configuration.maximumBodySize) {
        case .failure(let error): return AdminController.error(error.message, status: .badRequest)
        case .success(let object): body = object
        }
        if let message = body.unknownKeyMessage(accepted: ["app_id", "user", "outcome", "error", "code", "message", "claims"]) {
            return AdminController.error(message, status: .badRequest)
        }
        guard let appID = body["app_id"]?.stringValue, !appID.isEmpty else {
            return AdminController.error("Give \"app_id\": the app whose next dialog the scenario decides.", status: .badRequest)
        }
        guard try await services.store.app(id: appID) != nil else {
            return AdminController.error("No app with ID \(appID).", status: .notFound)
        }
        var userID: String?
        if let user = body["user"] {
            guard let name = user.stringValue, let found = try await services.store.user(idOrEmail: name) else {
                return AdminController.error("No test user \(body["user"]?.stringValue ?? "(not a string)") (give an ID or an email).", status: .notFound)
            }
            userID = found.id
        }
        let outcome: Scenario.Outcome
        switch Scenario.Outcome.parse(body) {
        case .failure(let error): return AdminController.error(error.message, status: .badRequest)
        case .success(let parsed): outcome = parsed
        }
        guard let scenario = services.scenarios.add(appID: appID, userID: userID, outcome: outcome) else {
            return AdminController.error("\(ScenarioQueue.capacity) scenarios are queued already; clear them first.", status: .conflict)
        }
        services.logger.info("scenario queued", metadata: ["app": "\(appID)", "scenario": "\(scenario.id)"])
        return Responses.json(scenario.json, status: .created)
    }

    private func clear(_ request: Request) -> Response {
        let appID = request.uri.queryParameters.get("app_id")
        let removed = services.scenarios.clear(appID: appID)
        return Responses.json(.object(["removed": .number(Double(removed))]))
    }
}
