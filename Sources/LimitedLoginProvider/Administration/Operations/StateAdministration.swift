import Foundation
import LimitedLoginJOSE

/// The whole state as a fixtures document (`GET /_admin/export`), and such a document loaded into a
/// running provider (`POST /_admin/import`, the console's import), as `serve --fixtures` loads one at
/// start: apps and users that exist already (by ID, or a user by email) are left alone, the rest added
/// with their grants, app-scoped IDs, tokens and keys; its scenarios are queued and its clock offset taken.
extension AdminOperations {
    func exportState(includingKeys: Bool) async throws -> Data {
        try await StateExport(store: store, clock: services.clock, scenarios: services.scenarios).json(includingKeys: includingKeys)
    }

    /// Removes everything but the keys and secrets, clears the queued scenarios and this node's recent logins,
    /// then seeds the demo data again unless `empty` (which the next start keeps). True when it seeded.
    func resetState(empty: Bool) async throws -> Bool {
        try await store.reset()
        services.scenarios.clear()
        services.recentLogins.removeAll()
        let seeded = empty ? false : try await FixtureLoader(store: store).seedDemoDataIfEmpty()
        try await store.setSetting(AdminStateController.emptiedSetting, to: empty ? "1" : "0")
        services.logger.notice("store reset through the admin API", metadata: ["empty": "\(empty)"])
        return seeded
    }

    /// What an import added, in words.
    struct ImportSummary: Sendable {
        let apps: Int
        let users: Int
        let scenarios: Int

        var sentence: String {
            "Imported: \(apps) new app\(apps == 1 ? "" : "s"), \(users) new test user\(users == 1 ? "" : "s"), \(scenarios) scenario\(scenarios == 1 ? "" : "s") queued."
        }
    }

    func importState(_ document: Data) async throws -> ImportSummary {
        let fixtures: ProviderFixtures
        do { fixtures = try ProviderFixtures.parse(document, source: "(the imported document)") } catch {
            throw AdminError.badRequest(Self.sentence("the document cannot be imported: " + error.reason))
        }
        let added: (apps: Int, users: Int)
        do {
            added = try await FixtureLoader(store: store, logger: services.logger).load(fixtures)
            try await StateImport(store: store).loadScenarios(fixtures, into: services.scenarios)
        } catch let error as FixturesError {
            throw AdminError.badRequest(Self.sentence("the document cannot be imported: " + error.reason))
        }
        if let offset = fixtures.clockOffset, offset != services.clock.offset {
            _ = try await moveClock(.advance(seconds: offset - services.clock.offset), force: true)
        }
        let summary = ImportSummary(apps: added.apps, users: added.users, scenarios: fixtures.scenarios?.count ?? 0)
        services.logger.notice("state imported", metadata: ["apps": "\(summary.apps)", "users": "\(summary.users)"])
        return summary
    }
}
