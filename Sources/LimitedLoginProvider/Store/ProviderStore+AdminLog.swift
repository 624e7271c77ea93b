import SQLKit

/// One admin write, as `GET /_admin/log` shows it: who (the credential's name, or `organisation` for the
/// admin token), what (`POST /_admin/apps/{id}`), on what (the path asked for), when and through which node.
package struct AdminLogEntry: Sendable, Equatable {
    package var id: String
    /// Microseconds since 1970 by the node's system clock (not the provider's movable clock).
    package var at: Int64
    package var credential: String
    package var operation: String
    package var target: String
    package var node: String
}

extension ProviderStore {
    /// Adds an entry and drops the oldest beyond `keeping`, so the log stays bounded.
    package func appendAdminLog(_ entry: AdminLogEntry, keeping: Int) async throws(StoreError) {
        try await run("admin log") {
            try await db.insert(into: "ll_admin_log").columns("id", "at", "credential", "operation", "target", "node")
                .values(entry.id, entry.at, entry.credential, entry.operation, entry.target, entry.node).run()
            // The newest `keeping` entries stay: everything older than the last of them goes.
            try await db.raw(
                """
                DELETE FROM ll_admin_log WHERE at < (SELECT at FROM ll_admin_log ORDER BY at DESC, id DESC LIMIT 1 OFFSET \(literal: keeping - 1))
                """
            ).run()
        }
    }

    /// The newest entries first, at most `limit`; only one credential's when `credential` is given.
    package func adminLog(limit: Int, credential: String? = nil) async throws(StoreError) -> [AdminLogEntry] {
        try await run("admin log") {
            var select = db.select().columns("id", "at", "credential", "operation", "target", "node").from("ll_admin_log")
            if let credential { select = select.where("credential", .equal, credential) }
            return try await select.orderBy("at", .descending).orderBy("id", .descending).limit(limit).all().map { row in
                AdminLogEntry(
                    id: try row.decode(column: "id", as: String.self), at: try row.decode(column: "at", as: Int64.self),
                    credential: try row.decode(column: "credential", as: String.self),
                    operation: try row.decode(column: "operation", as: String.self),
                    target: try row.decode(column: "target", as: String.self), node: try row.decode(column: "node", as: String.self))
            }
        }
    }
}
