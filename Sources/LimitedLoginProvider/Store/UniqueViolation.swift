import PostgresKit
import SQLiteKit

/// Whether a driver error is a unique-key violation (a row with that key exists), read from the driver's
/// typed error: PostgreSQL's SQLSTATE 23505 (`unique_violation`); SQLite's constraint result code. SQLiteNIO
/// reports SQLite's basic result codes, in which a unique or primary-key violation and a NOT NULL one share
/// SQLITE_CONSTRAINT, so for that code the error's own message names which it was ("UNIQUE constraint
/// failed: …"); the extended codes, when a driver reports them, are taken as they are.
enum UniqueViolation {
    static let postgresUniqueViolation = "23505"

    static func matches(_ error: any Error) -> Bool {
        if let error = error as? PSQLError {
            return error.serverInfo?[.sqlState] == postgresUniqueViolation
        }
        if let error = error as? SQLiteError {
            switch error.reason {
            case .constraintUniqueFailed, .constraintPrimaryKeyFailed, .constraintUniqueRowIDFailed: return true
            case .constraint: return error.message.hasPrefix("UNIQUE constraint failed") || error.message.hasPrefix("PRIMARY KEY")
            default: return false
            }
        }
        return false
    }
}
