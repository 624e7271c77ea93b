import SQLKit

extension ProviderStore {
    /// The test user with this provider ID, or else with this email (case-insensitive), or nil: how the
    /// harness names a person (`"user": "alice@example.com"` or `"user": "100001"`).
    package func user(idOrEmail: String) async throws(StoreError) -> TestUserRecord? {
        if let user = try await user(id: idOrEmail) { return user }
        guard idOrEmail.contains("@") else { return nil }
        return try await userWithPasswordHash(email: idOrEmail)?.0
    }

    /// A setting's value, or nil when it was never set.
    func settingValue(_ name: String) async throws(StoreError) -> String? {
        try await run("setting \(name)") {
            try await db.select().column("value").from("ll_settings").where("name", .equal, name)
                .first(decodingColumn: "value", as: String.self)
        }
    }

    /// The values of those of `names` that were ever set, in one query (a start reads five).
    func settingValues(_ names: [String]) async throws(StoreError) -> [String: String] {
        struct Row: Decodable {
            var name: String
            var value: String
        }
        return try await run("settings") {
            let rows = try await db.select().columns("name", "value").from("ll_settings").where("name", .in, names).all(decoding: Row.self)
            return Dictionary(rows.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Sets a setting stored empty to `value`; one stored with a value (another node's, just now) stays.
    func replaceEmptySetting(_ name: String, with value: String) async throws(StoreError) {
        try await run("setting \(name)") {
            try await db.update("ll_settings").set("value", to: value).where("name", .equal, name).where("value", .equal, "").run()
        }
    }

    /// Sets a setting, replacing any value.
    /// Sets a setting only if it still holds `expected` (nil: it was never set), in one statement; returns
    /// whether it was set. Two nodes writing from the same read: one succeeds, the other learns it lost.
    func setSetting(_ name: String, to value: String, ifStill expected: String?) async throws(StoreError) -> Bool {
        try await run("setting \(name)") {
            guard let expected else {
                return try await db.insert(into: "ll_settings").columns("name", "value").values(name, value)
                    .ignoringConflicts(with: ["name"]).returning("name").all().isEmpty == false
            }
            return try await db.update("ll_settings").set("value", to: value).where("name", .equal, name).where("value", .equal, expected)
                .returning("name").all().isEmpty == false
        }
    }

    func setSetting(_ name: String, to value: String) async throws(StoreError) {
        try await run("setting \(name)") {
            try await db.insert(into: "ll_settings").columns("name", "value").values(name, value)
                .onConflict(with: ["name"]) { $0.set(excludedValueOf: "value") }.run()
        }
    }
}
