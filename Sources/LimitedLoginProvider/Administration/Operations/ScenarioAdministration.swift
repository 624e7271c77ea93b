/// Outcomes queued for the next dialogs (docs/BEHAVIOUR.md, section 9).
extension AdminOperations {
    /// Queues a scenario for the app's next dialog (one user's, when the request names one).
    func queueScenario(_ request: ScenarioRequest) async throws -> Scenario {
        guard try await store.app(id: request.appID) != nil else {
            throw AdminError.notFound("No app with ID \(request.appID).")
        }
        guard AdminCaller.current.mayTouch(app: request.appID) else {
            throw AdminCaller.current.outOfScope("App \(request.appID) is not this credential's.")
        }
        var userID: String?
        if let name = request.user {
            guard let found = try await visibleUser(name) else { throw AdminError.notFound("No test user \(name) (give an ID or an email).") }
            userID = found.id
        }
        guard let scenario = services.scenarios.add(appID: request.appID, userID: userID, outcome: request.outcome) else {
            throw AdminError.conflict("\(ScenarioQueue.capacity) scenarios are queued already; clear them first.")
        }
        services.logger.info("scenario queued", metadata: ["app": "\(request.appID)", "scenario": "\(scenario.id)"])
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
