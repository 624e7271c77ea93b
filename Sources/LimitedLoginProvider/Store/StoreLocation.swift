/// Where the provider keeps its state.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite database file, created on first use (WAL journal).
    case sqliteFile(path: String)
    /// An SQLite database in memory, gone when the provider stops (tests).
    case sqliteMemory

    /// Reads a `--database` value: a file path, or `:memory:`.
    public init(argument: String) throws(StoreError) {
        if argument == ":memory:" {
            self = .sqliteMemory
        } else if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            throw .unavailable("PostgreSQL is not supported yet; give an SQLite file path")
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
        }
    }
}
