import Foundation

/// A store as a team's long-lived shared provider may grow: 100,000 test users and 1,000,000 sessions, made
/// from a store a first start wrote (its keys and schema) with the `sqlite3` shell (Debian's `sqlite3`), in
/// two statements.
enum LargeStore {
    static let name = "large store (100,000 users, 1,000,000 sessions)"

    static func make(at path: String, from store: String) throws {
        try FileManager.default.copyItem(atPath: store, toPath: path)
        let fill = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO ll_users (id, first_name, last_name, email, password_hash, created_at, pickable)
            SELECT printf('9%014d', i), 'First' || i, 'Last' || i, 'user' || i || '@example.com', '', 1700000000, 1 FROM n;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
            INSERT INTO ll_sessions (id_hash, user_id, created_at, expires_at, created_us)
            SELECT lower(hex(randomblob(32))), printf('9%014d', 1 + (i % 100000)), 1700000000, 4102444800, i FROM n;
            """
        print("  making the \(name) with sqlite3 …")
        try sqlite3([path, fill])
    }

    /// Seconds `PRAGMA quick_check` takes on the file (the `sqlite3` shell's start included, a few ms).
    static func timeQuickCheck(_ path: String) throws -> Double {
        let start = ContinuousClock.now
        try sqlite3([path, "PRAGMA quick_check"])
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static func sqlite3(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw BenchmarkError.unexpectedResponse("start --large needs the sqlite3 shell (apt-get install sqlite3): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError.unexpectedResponse(
                "sqlite3 \(arguments.dropLast().joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
    }
}
