import SQLKit

private struct AppRow: Codable, Sendable {
    var id: String
    var secret: String
    var name: String
    var businessId: String?
    var redirectUris: String
    var createdAt: Int64
    var isGaming: Int64
    var urlSchemeSuffixes: String
    var requiresAppsecretProof: Int64
    var deauthorizeCallbackUrl: String
    var dataDeletionCallbackUrl: String
    var mode: String

    init(_ app: AppRecord, createdAt: Int64) {
        id = app.id
        secret = app.secret
        name = app.name
        businessId = app.businessID
        redirectUris = app.redirectURIs.joined(separator: "\n")
        self.createdAt = createdAt
        isGaming = app.isGaming ? 1 : 0
        urlSchemeSuffixes = app.urlSchemeSuffixes.joined(separator: "\n")
        requiresAppsecretProof = app.requiresAppSecretProof ? 1 : 0
        deauthorizeCallbackUrl = app.deauthorizeCallbackURL ?? ""
        dataDeletionCallbackUrl = app.dataDeletionCallbackURL ?? ""
        mode = app.mode.rawValue
    }

    var record: AppRecord {
        AppRecord(
            id: id, secret: secret, name: name, businessID: businessId,
            redirectURIs: redirectUris.split(separator: "\n").map(String.init), isGaming: isGaming != 0,
            urlSchemeSuffixes: urlSchemeSuffixes.split(separator: "\n").map(String.init), requiresAppSecretProof: requiresAppsecretProof != 0,
            deauthorizeCallbackURL: deauthorizeCallbackUrl.isEmpty ? nil : deauthorizeCallbackUrl,
            dataDeletionCallbackURL: dataDeletionCallbackUrl.isEmpty ? nil : dataDeletionCallbackUrl,
            mode: AppMode(rawValue: mode) ?? .live
        )
    }
}

extension ProviderStore {
    /// Registers an app; ``StoreError/duplicate(_:)`` when its ID is taken.
    package func createApp(_ app: AppRecord) async throws(StoreError) {
        try await run("app \(app.id)") {
            try await db.insert(into: "ll_apps").model(AppRow(app, createdAt: now()), keyEncodingStrategy: .convertToSnakeCase).run()
        }
        caches.apps.remove(app.id)
    }

    /// The app with this ID, or nil. `fresh`: read from the database, not from this node's cache (for an edit
    /// that writes the record back).
    package func app(id: String, fresh: Bool = false) async throws(StoreError) -> AppRecord? {
        if !fresh, let cached = caches.apps.value(for: id) { return cached }
        let app = try await run("app \(id)") {
            try await db.select().column("*").from("ll_apps").where("id", .equal, id)
                .first(decoding: AppRow.self, keyDecodingStrategy: .convertFromSnakeCase)?.record
        }
        if let app { caches.apps.store(app, for: id) }
        return app
    }

    /// Every app, oldest first.
    package func apps() async throws(StoreError) -> [AppRecord] {
        try await run("apps") {
            try await db.select().column("*").from("ll_apps").orderBy("created_at").orderBy("id")
                .all(decoding: AppRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }
}
