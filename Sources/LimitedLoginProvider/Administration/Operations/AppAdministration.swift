import Foundation

/// Apps: list, create, edit, move to another business, delete.
extension AdminOperations {
    func apps() async throws -> [ProviderFixtures.App] {
        try await store.apps().filter { AdminCaller.current.mayTouch(app: $0.id) }.map(ProviderFixtures.App.init(record:))
    }

    /// A new app in the fixtures file's shape; its secret is made when not given, its `roles` (by ID or
    /// email) given once it exists. 409 when the ID is taken; nothing is made when a role names no one.
    func createApp(_ app: ProviderFixtures.App) async throws -> ProviderFixtures.App {
        for uri in app.redirectURIs ?? [] {
            do { try RedirectURIRegistration.check(uri) } catch { throw AdminError.badRequest(error.description) }
        }
        do { try ProviderFixtures(apps: [app]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        try checkCallbackAddresses(app)
        var roles: [(userID: String, role: AppRole)] = []
        for (person, name) in (app.roles ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let user = try await store.user(idOrEmail: person) else { throw AdminError.notFound("No test user with ID or email \(person).") }
            if let role = AppRole(rawValue: name) { roles.append((user.id, role)) }
        }
        let record = AppRecord(fixture: app, secret: RandomIdentifiers.appSecret())
        do { try await store.createApp(record) } catch {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("An app with ID \(app.id) already exists.")
        }
        for (userID, role) in roles { try await store.setRole(appID: record.id, userID: userID, role: role) }
        var created = ProviderFixtures.App(record: record)
        if !roles.isEmpty { created.roles = Dictionary(uniqueKeysWithValues: roles.map { ($0.userID, $0.role.rawValue) }) }
        return created
    }

    func editApp(id: String, _ edit: AppEdit) async throws -> ProviderFixtures.App {
        try await saveEditedApp(try await editedApp(id: id, edit))
    }

    /// The app as `edit` would leave it, checked as a new app is; nothing is written (``saveEditedApp(_:)``
    /// does), so that a form that changes more than the app checks everything before anything changes.
    func editedApp(id: String, _ edit: AppEdit) async throws -> EditedApp {
        try requireTouchable(app: id)
        // From the database: a record this node cached may predate another node's change (a new secret), which
        // writing it back would undo.
        guard let original = try await store.app(id: id, fresh: true) else { throw AdminError.notFound("No app with ID \(id).") }
        var app = original
        guard edit != AppEdit(newSecret: false), edit != AppEdit() else {
            throw AdminError.badRequest(
                "Send at least one of name, redirect_uris, url_scheme_suffixes, new_secret: true, gaming, require_appsecret_proof, deauthorize_callback_url, data_deletion_callback_url and mode."
            )
        }
        if let name = edit.name { app.name = name }
        if let uris = edit.redirectURIs { app.redirectURIs = uris }
        if let suffixes = edit.urlSchemeSuffixes { app.urlSchemeSuffixes = suffixes }
        if let gaming = edit.gaming { app.isGaming = gaming }
        if let required = edit.requireAppSecretProof { app.requiresAppSecretProof = required }
        if let url = edit.deauthorizeCallbackURL { app.deauthorizeCallbackURL = url.isEmpty ? nil : url }
        if let url = edit.dataDeletionCallbackURL { app.dataDeletionCallbackURL = url.isEmpty ? nil : url }
        if let mode = edit.mode {
            guard let parsed = AppMode(rawValue: mode) else { throw AdminError.badRequest("The mode \"\(mode)\" must be development or live.") }
            app.mode = parsed
        }
        if edit.newSecret == true { app.secret = RandomIdentifiers.appSecret() }
        // Checked as a new app is: the same rules, whichever field changed.
        let shape = ProviderFixtures.App(record: app)
        for uri in shape.redirectURIs ?? [] {
            do { try RedirectURIRegistration.check(uri) } catch { throw AdminError.badRequest(error.description) }
        }
        do { try ProviderFixtures(apps: [shape]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        try checkCallbackAddresses(shape)
        return EditedApp(original: original, app: app)
    }

    /// Refuses callback URLs on the provider's own network (``CallbackAddressPolicy``), unless the provider
    /// allows them. A host name is judged again when a callback is posted.
    private func checkCallbackAddresses(_ app: ProviderFixtures.App) throws {
        guard !services.configuration.allowsPrivateCallbacks else { return }
        for (name, url) in [("deauthorize_callback_url", app.deauthorizeCallbackURL), ("data_deletion_callback_url", app.dataDeletionCallbackURL)] {
            guard let url, let parsed = URL(string: url), let problem = CallbackAddressPolicy.problem(url: parsed) else { continue }
            throw AdminError.badRequest("The \(name) \"\(url)\" \(problem).")
        }
    }

    /// Writes an app that ``editedApp(id:_:)`` made.
    func saveEditedApp(_ edited: EditedApp) async throws -> ProviderFixtures.App {
        switch try await store.updateApp(edited.app, from: edited.original) {
        case .saved: return ProviderFixtures.App(record: edited.app)
        case .notFound: throw AdminError.notFound("No app with ID \(edited.app.id).")
        case .secretChangedMeanwhile:
            throw AdminError.conflict("The app's secret was changed by another request at the same moment; nothing was saved. Send the edit again.")
        }
    }

    /// Moves the app to a business (`nil` or empty: none, as the console's empty field means), which decides
    /// whose apps share a person's business token.
    func moveApp(id: String, toBusiness businessID: String?) async throws -> ProviderFixtures.App {
        try requireTouchable(app: id)
        let businessID = businessID.flatMap { $0.isEmpty ? nil : $0 }
        guard let app = try await store.moveApp(id: id, toBusiness: businessID) else { throw AdminError.notFound("No app with ID \(id).") }
        return ProviderFixtures.App(record: app)
    }

    func deleteApp(id: String) async throws {
        try requireTouchable(app: id)
        guard try await store.deleteApp(id: id) else { throw AdminError.notFound("No app with ID \(id).") }
    }
}
