import Foundation

/// Where the provider keeps its state.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite database file, created on first use (WAL journal).
    case sqliteFile(path: String)
    /// An SQLite database in memory, gone when the provider stops (tests).
    case sqliteMemory
    /// A PostgreSQL database (`postgres://user:password@host:port/database`), which several provider
    /// processes can share.
    case postgres(url: String)

    /// Reads a `--database` value: a file path, or `:memory:`.
    public init(argument: String) throws(StoreError) {
        if argument == ":memory:" {
            self = .sqliteMemory
        } else if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            guard let url = URL(string: argument), url.host != nil, url.user != nil else {
                throw .unavailable("\(Self.redacted(argument)) is not a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/database")
            }
            self = .postgres(url: argument)
        } else if argument.isEmpty {
            throw .unavailable("the database path is empty")
        } else {
            self = .sqliteFile(path: argument)
        }
    }

    public var description: String {
        switch self {
        case .sqliteFile(let path): return "SQLite file \(path)"
        case .sqliteMemory: return "SQLite in memory"
        case .postgres(let url): return "PostgreSQL \(Self.redacted(url))"
        }
    }

    /// True when several provider processes may share the store.
    public var isShared: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The URL without its password, for messages and logs.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }
}
