import LimitedLoginJOSE

/// Outcomes queued for the next dialogs (docs/BEHAVIOUR.md, section 9).
extension AdminOperations {
    /// Queues a scenario from the admin API's body: `{"app_id", "user"?, "outcome", "code"?, "message"?,
    /// "claims"?}` (`error` is accepted as a synonym the API always took).
    func queueScenario(_ body: JSONObject) async throws -> Scenario {
        if let message = body.unknownKeyMessage(accepted: ["app_id", "user", "outcome", "error", "code", "message", "claims"]) {
            throw AdminError.badRequest(message)
        }
        guard let appID = body["app_id"]?.stringValue, !appID.isEmpty else {
            throw AdminError.badRequest("Give \"app_id\": the app whose next dialog the scenario decides.")
        }
        guard try await store.app(id: appID) != nil else {
            throw AdminError.notFound("No app with ID \(appID).")
        }
        guard AdminCaller.current.mayTouch(app: appID) else { throw AdminCaller.current.outOfScope("App \(appID) is not this credential's.") }
        var userID: String?
        if let user = body["user"] {
            guard let name = user.stringValue, let found = try await visibleUser(name) else {
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
        return scenario
    }

    /// The queued scenarios the caller may see, in order.
    func scenarios() -> [Scenario] {
        services.scenarios.all.filter { AdminCaller.current.mayTouch(app: $0.appID) }
    }

    /// Removes one queued scenario by its ID (to a scoped credential, another app's does not exist).
    func removeScenario(id: Int) throws {
        let visible = services.scenarios.all.contains { $0.id == id && AdminCaller.current.mayTouch(app: $0.appID) }
        guard visible, services.scenarios.remove(id: id) else {
            throw AdminError.notFound("No queued scenario \(id): it was taken by a dialog, or removed.")
        }
    }

    /// Removes the queued scenarios (one app's, or all the caller may touch); returns how many there were.
    func clearScenarios(appID: String? = nil) throws -> Int {
        switch (AdminCaller.current, appID) {
        case (.organisation, _): return services.scenarios.clear(appID: appID)
        case (.credential(_, let apps), nil): return apps.reduce(0) { $0 + services.scenarios.clear(appID: $1) }
        case (let caller, let appID?):
            guard caller.mayTouch(app: appID) else { throw caller.outOfScope("App \(appID) is not this credential's.") }
            return services.scenarios.clear(appID: appID)
        }
    }
}
