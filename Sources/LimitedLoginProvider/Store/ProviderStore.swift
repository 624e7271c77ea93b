import Logging
import NIOCore
import SQLKit
import SQLiteKit

/// The provider's state: apps, test users, friendships, app-scoped IDs, grants, sessions, codes, access
/// tokens, signing keys and settings.
///
/// One implementation over SQLKit. SQLite is the embedded default: one connection (SQLite serializes
/// writers anyway), WAL journal, `synchronous=FULL` so that a committed login survives a crash. Each
/// operation is a single statement, so nothing depends on a transaction spanning requests; that keeps
/// the same code correct when a PostgreSQL pool replaces the single connection.
public final class ProviderStore: Sendable {
    let db: any SQLDatabase
    private let closeConnection: @Sendable () async throws -> Void
    public let location: StoreLocation

    init(db: any SQLDatabase, location: StoreLocation, close: @escaping @Sendable () async throws -> Void) {
        self.db = db
        self.location = location
        self.closeConnection = close
    }

    /// Opens (creating if needed) the store and brings its schema up to date.
    public static func open(_ location: StoreLocation, logger: Logger) async throws(StoreError) -> ProviderStore {
        let storage: SQLiteConnection.Storage
        switch location {
        case .sqliteFile(let path): storage = .file(path: path)
        case .sqliteMemory: storage = .memory
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        } catch {
            throw .unavailable("cannot open \(location): \(error)")
        }
        let db = connection.sql(queryLogLevel: nil)
        do {
            if case .sqliteFile = location {
                try await db.raw("PRAGMA journal_mode=WAL").run()
            }
            try await db.raw("PRAGMA synchronous=FULL").run()
            try await db.raw("PRAGMA busy_timeout=5000").run()
            try await StoreMigrations.run(on: db)
        } catch {
            try? await connection.close()
            throw .unavailable("cannot prepare \(location): \(String(reflecting: error))")
        }
        return ProviderStore(db: db, location: location, close: { try await connection.close() })
    }

    /// Closes the connection; later calls fail.
    public func close() async {
        try? await closeConnection()
    }

    /// Runs a store operation, turning driver errors into ``StoreError``.
    func run<T>(_ what: String, _ body: () async throws -> T) async throws(StoreError) -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch {
            let text = String(reflecting: error)
            if text.localizedCaseInsensitiveContains("UNIQUE constraint") || text.contains("duplicate key") {
                throw .duplicate(what)
            }
            throw .database("\(what): \(text)")
        }
    }
}
