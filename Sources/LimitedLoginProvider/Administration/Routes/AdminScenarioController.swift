import Hummingbird
import LimitedLoginJOSE

/// `POST|GET|DELETE /_admin/scenarios`: outcomes queued for the next dialogs (docs/BEHAVIOUR.md, section 9).
///
/// `POST {"app_id": "…", "user": "alice@example.com" (optional), "outcome": "cancel"}` (or `"error"` with
/// `"code"` and `"message"`, or `"claims"` with `"claims": {…}`); `GET` lists them in order; `DELETE`
/// (optionally `?app_id=…`) clears them; `DELETE /_admin/scenarios/{id}` removes one.
struct AdminScenarioController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/scenarios") { request, _ in list() }
        router.post("/_admin/scenarios") { request, _ in try await add(request) }
        router.delete("/_admin/scenarios") { request, _ in try clear(request) }
        router.delete("/_admin/scenarios/:id") { _, context in try remove(context.parameters.get("id") ?? "") }
    }

    private func list() -> Response {
        Responses.json(.object(["scenarios": .array(AdminOperations(services: services).scenarios().map(\.json))]))
    }

    private func add(_ request: Request) async throws -> Response {
        let body: JSONObject
        switch await AdminJSONBody.read(request, limit: services.configuration.maximumBodySize) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let object): body = object
        }
        let scenario = try await AdminOperations(services: services).queueScenario(try ScenarioRequest(body))
        return Responses.json(scenario.json, status: .created)
    }

    private func remove(_ id: String) throws -> Response {
        guard let number = Int(id), number > 0 else { throw AdminError.badRequest("A scenario's ID is a positive whole number, not \"\(id)\".") }
        try AdminOperations(services: services).removeScenario(id: number)
        return try Responses.json(AdminAcknowledgement())
    }

    private func clear(_ request: Request) throws -> Response {
        let appID = request.uri.queryParameters.get("app_id")
        let removed = try AdminOperations(services: services).clearScenarios(appID: appID)
        return try Responses.json(["removed": removed])
    }
}
