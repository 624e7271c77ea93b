/// Why the provider's store refused or failed an operation.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database could not be opened or prepared.
    case unavailable(String)
    /// A record with this identity already exists.
    case duplicate(String)
    /// A stored value could not be read back.
    case corrupt(String)
    /// The database reported an error.
    case database(String)
    /// The store holds schema steps this binary does not know: a newer release made or upgraded it.
    case newerSchema(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): return "the store is unavailable: \(reason)"
        case .duplicate(let what): return "\(what) already exists"
        case .corrupt(let what): return "a stored value is unreadable: \(what)"
        case .database(let reason): return "the database failed: \(reason)"
        case .newerSchema(let reason): return "the store is newer than this release: \(reason)"
        }
    }
}
