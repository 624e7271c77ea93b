import LimitedLoginProvider
import Testing

/// The databases the store's tests run on: SQLite always, PostgreSQL when a test server is configured
/// (`scripts/test` starts one and sets `LIMITED_LOGIN_TEST_POSTGRES_URL`).
public enum StoreDialect: String, Sendable, CustomTestStringConvertible, CaseIterable {
    case sqlite
    case postgres

    public static var available: [StoreDialect] {
        PostgresTestDatabase.serverURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A new, empty store location of this dialect (a fresh SQLite file, or a fresh PostgreSQL database).
    public func freshLocation() async throws -> StoreLocation {
        switch self {
        case .sqlite: return .sqliteFile(path: temporaryDatabasePath())
        case .postgres: return .postgres(url: try await PostgresTestDatabase.create())
        }
    }

    public var testDescription: String { rawValue }
}
