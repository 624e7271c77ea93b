/// The apps' callbacks: what was delivered, and a person's data-deletion request.
extension AdminOperations {
    /// Every delivery, newest first.
    func deliveries() async throws -> [CallbackDelivery] {
        try await store.deliveries().filter { AdminCaller.current.mayTouch(app: $0.appID) }
    }

    /// The person asks the app to delete their data (as from their settings on the real service): the
    /// app's Data Deletion Request Callback is posted; the delivery is returned pending.
    func requestDataDeletion(appID: String, user: String) async throws -> CallbackDelivery {
        try requireTouchable(app: appID)
        guard let app = try await store.app(id: appID) else { throw AdminError.notFound("No app with ID \(appID).") }
        guard app.dataDeletionCallbackURL != nil else {
            throw AdminError.badRequest("App \(app.id) has no data deletion callback URL (data_deletion_callback_url).")
        }
        guard let person = try await store.user(idOrEmail: user) else { throw AdminError.notFound("No test user with ID or email \(user).") }
        guard try await store.grant(appID: appID, userID: person.id) != nil else {
            throw AdminError.badRequest("\(person.email) never logged in to app \(appID): it holds no data of theirs.")
        }
        return try await services.callbacks.dataDeletionRequested(app, userID: person.id)
    }
}
