import Foundation

/// Apps: list, create, edit, move to another business, delete.
extension AdminOperations {
    func apps() async throws -> [ProviderFixtures.App] {
        try await store.apps().map(ProviderFixtures.App.init(record:))
    }

    /// A new app in the fixtures file's shape; its secret is made when not given. 409 when the ID is taken.
    func createApp(_ app: ProviderFixtures.App) async throws -> ProviderFixtures.App {
        for uri in app.redirectURIs ?? [] {
            do { try RedirectURIRegistration.check(uri) } catch { throw AdminError.badRequest(error.description) }
        }
        do { try ProviderFixtures(apps: [app]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        let record = AppRecord(fixture: app, secret: RandomIdentifiers.appSecret())
        do { try await store.createApp(record) } catch {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("An app with ID \(app.id) already exists.")
        }
        return ProviderFixtures.App(record: record)
    }

    func editApp(id: String, _ edit: AppEdit) async throws -> ProviderFixtures.App {
        guard let existing = try await store.app(id: id) else { throw AdminError.notFound("No app with ID \(id).") }
        if let name = edit.name {
            let changed = ProviderFixtures.App(id: id, secret: existing.secret, name: name)
            do { try ProviderFixtures(apps: [changed]).validate() } catch { throw AdminError.badRequest(Self.sentence(error.reason)) }
        }
        for uri in edit.redirectURIs ?? [] {
            do { try RedirectURIRegistration.check(uri) } catch { throw AdminError.badRequest(error.description) }
        }
        guard edit.name != nil || edit.redirectURIs != nil || edit.newSecret == true || edit.gaming != nil else {
            throw AdminError.badRequest("Send at least one of name, redirect_uris, new_secret: true and gaming.")
        }
        let app = try await store.updateApp(
            id: id, name: edit.name, redirectURIs: edit.redirectURIs,
            secret: edit.newSecret == true ? RandomIdentifiers.appSecret() : nil, isGaming: edit.gaming
        )
        guard let app else { throw AdminError.notFound("No app with ID \(id).") }
        return ProviderFixtures.App(record: app)
    }

    /// Moves the app to a business (`nil`: none), which decides whose apps share a person's business token.
    func moveApp(id: String, toBusiness businessID: String?) async throws -> ProviderFixtures.App {
        guard let app = try await store.moveApp(id: id, toBusiness: businessID) else { throw AdminError.notFound("No app with ID \(id).") }
        return ProviderFixtures.App(record: app)
    }

    func deleteApp(id: String) async throws {
        guard try await store.deleteApp(id: id) else { throw AdminError.notFound("No app with ID \(id).") }
    }
}
