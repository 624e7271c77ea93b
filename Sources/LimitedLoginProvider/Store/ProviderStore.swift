import Logging
import NIOCore
import SQLKit
import SQLiteKit
import Synchronization

/// The provider's state: apps, test users, friendships, app-scoped IDs, grants, sessions, codes, access
/// tokens, signing keys and settings.
///
/// One implementation over SQLKit. SQLite is the embedded default: one connection (SQLite serializes
/// writers anyway), WAL journal, `synchronous=FULL` so that a committed login survives a crash. Each
/// operation is a single statement, so nothing depends on a transaction spanning requests; that keeps
/// the same code correct when a PostgreSQL pool replaces the single connection. The exception is the
/// signing keys' writes on PostgreSQL: a rotation (and a first key) runs in one transaction on one pooled
/// connection, holding an advisory lock, so that nodes take turns (``storeRotation(_:dropPrevious:)``).
///
/// An SQLite file is locked for one process, which caches what every dialog request reads and keeps the
/// caches exact by invalidating on its own writes: apps, users and sessions (also bounded to two seconds),
/// app-scoped IDs (they never change), and grants with visible friends (tagged with a generation that
/// every grant, friendship or app-scoped-ID write bumps).
package final class ProviderStore: Sendable {
    let db: any SQLDatabase
    let caches: StoreCaches
    private let closeConnection: @Sendable () async throws -> Void
    /// Set by ``close()``.
    private let isClosed = Atomic<Bool>(false)
    package let location: StoreLocation
    /// The provider's clock, given by the provider that opened the store (``useClock(_:)``), so that the
    /// store's times never depend on a task-local being in scope; a store opened alone (a test, a tool)
    /// reads ``ProviderTime`` (the system's time outside a provider).
    private let clock = Mutex<ProviderClock?>(nil)

    init(db: any SQLDatabase, location: StoreLocation, close: @escaping @Sendable () async throws -> Void) {
        self.db = db
        self.location = location
        // Both SQLite stores belong to this process alone (a file is locked exclusively; memory is private);
        // a PostgreSQL database is shared with other nodes, whose writes no local cache would see.
        self.caches = StoreCaches(isSoleWriter: !location.isShared)
        self.closeConnection = close
    }

    /// Opens (creating if needed) the store and brings its schema up to date.
    ///
    /// An existing SQLite file that is empty (a failed copy looks like that), or that holds tables but none
    /// of the provider's (another program's database), is refused, unless `initializing` says to make a
    /// store in it (`serve --init`).
    package static func open(_ location: StoreLocation, logger: Logger, initializing: Bool = false) async throws(StoreError) -> ProviderStore {
        // The drivers log statements and their bound values at debug level; keep them quieter than that,
        // so that no log level shows what the store holds.
        var driverLogger = logger
        if driverLogger.logLevel < .notice { driverLogger.logLevel = .notice }
        let storage: SQLiteConnection.Storage
        switch location {
        case .sqliteFile(let path): storage = .file(path: path)
        case .sqliteMemory: storage = .memory
        case .postgres(let url): return try await PostgresStoreConnection.open(url: url, location: location, logger: driverLogger)
        }
        // One provider process per file: a second one fails at start instead of serving from caches that
        // the first one's writes would make stale.
        let fileLock: StoreFileLock?
        if case .sqliteFile(let path) = location {
            fileLock = try StoreFileLock(databasePath: path)
            do {
                if !initializing { try StoreFileLock.refuseEmpty(databasePath: path) }
                try StoreFileLock.createPrivately(databasePath: path)
                try fileLock?.lockDatabaseFile(path)
            } catch {
                fileLock?.release()
                throw error
            }
        } else {
            fileLock = nil
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: storage, logger: driverLogger)
        } catch {
            fileLock?.release()
            throw .unavailable("cannot open \(location): \(error)")
        }
        let db = connection.sql(queryLogLevel: nil)
        do {
            if case .sqliteFile = location {
                // A damaged page anywhere in the file is found now, not by the first request that reads it.
                let verdict: String?
                do {
                    verdict = try await db.raw("PRAGMA quick_check").all().first.flatMap { try? $0.decode(column: "quick_check", as: String.self) }
                } catch let error as SQLiteError {
                    // Damage where the check itself must read (the schema's pages): SQLite stops instead of listing it.
                    switch error.reason {
                    case .corrupt, .corruptIndex, .notADatabase: verdict = error.message
                    default: throw error
                    }
                }
                guard verdict == "ok" else {
                    let first = (verdict ?? "no answer").split(separator: "\n").filter { !$0.hasPrefix("***") }.joined(separator: "; ")
                    throw StoreError.corrupt("the SQLite file fails its integrity check (\(first)); restore it from a copy")
                }
                if !initializing, case .sqliteFile(let path) = location {
                    let tables = try await db.raw("SELECT name FROM sqlite_master WHERE type = 'table'").all()
                        .compactMap { try? $0.decode(column: "name", as: String.self) }
                    if !tables.isEmpty, !tables.contains(where: { $0.hasPrefix("ll_") }) {
                        throw StoreError.unavailable(
                            "the SQLite file \(path) is a database without the provider's tables (another program's file?); "
                                + "give another --database, or add --init to make a store in it"
                        )
                    }
                }
                try await db.raw("PRAGMA journal_mode=WAL").run()
            }
            try await db.raw("PRAGMA synchronous=FULL").run()
            try await db.raw("PRAGMA busy_timeout=5000").run()
            try await StoreMigrations.run(on: db)
        } catch let error as StoreError {
            try? await connection.close()
            fileLock?.release()
            // A refusal of this file already names it and says what to do.
            if case .unavailable = error { throw error }
            if case .newerSchema = error { throw error }
            throw .unavailable("cannot use \(location): \(error.description)")
        } catch {
            try? await connection.close()
            fileLock?.release()
            throw .unavailable("cannot prepare \(location): \(String(reflecting: error))")
        }
        return ProviderStore(
            db: db, location: location,
            close: {
                defer { fileLock?.release() }
                try await connection.close()
            })
    }

    /// True once ``close()`` was called: the provider is stopping.
    var wasClosed: Bool { isClosed.load(ordering: .relaxed) }

    /// Closes the connection; later calls fail with ``StoreError/unavailable(_:)`` ("the store is closed").
    package func close() async {
        isClosed.store(true, ordering: .relaxed)
        try? await closeConnection()
    }

    /// Makes the store read `clock` for every time it writes or compares.
    func useClock(_ clock: ProviderClock) {
        self.clock.withLock { $0 = clock }
    }

    /// Now, by the provider's clock when one was given.
    func now() -> Int64 {
        clock.withLock { $0 }?.now() ?? ProviderTime.now()
    }

    /// The earliest time the provider's clock can be brought back to without `force` (``ProviderTime/settledNow()``).
    func settledNow() -> Int64 {
        clock.withLock { $0 }?.settledNow() ?? ProviderTime.settledNow()
    }

    /// Runs a store operation, turning driver errors into ``StoreError``.
    func run<T>(_ what: String, _ body: () async throws -> T) async throws(StoreError) -> T {
        guard !isClosed.load(ordering: .relaxed) else { throw .unavailable("the store is closed") }
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch {
            if UniqueViolation.matches(error) { throw .duplicate(what) }
            throw .database("\(what): \(String(reflecting: error))")
        }
    }
}

extension ProviderStore {
    /// One trivial query: the database answers.
    package func ping() async throws(StoreError) {
        try await run("ping") { try await db.raw("SELECT 1").run() }
    }

    /// A one-row write (`health_probe` in the settings): the store can write now (a full disk or a
    /// read-only file fails it). `/health` makes it at most once a second.
    func probeWrite(at now: Int64) async throws(StoreError) {
        try await setSetting("health_probe", to: String(now))
    }
}
