/// Outcomes queued for the next dialogs (docs/BEHAVIOUR.md, section 9).
extension AdminOperations {
    /// Removes the queued scenarios (one app's, or all); returns how many there were.
    func clearScenarios(appID: String? = nil) -> Int {
        services.scenarios.clear(appID: appID)
    }
}
