import Logging
import NIOCore
import NIOPosix
@preconcurrency import PostgresKit

/// The PostgreSQL side of ``ProviderStore``: a connection pool that several provider processes can
/// share a database through, and migrations run under an advisory lock so that nodes starting together
/// on an empty database create the schema once.
enum PostgresStoreConnection {
    /// The advisory-lock key that serializes migrations across nodes ("LLMIGRAT" as a number).
    static let migrationLockKey: Int64 = 0x4C4C_4D49_4752_4154

    static func open(url: String, location: StoreLocation, logger: Logger) async throws(StoreError) -> ProviderStore {
        var configuration: SQLPostgresConfiguration
        do { configuration = try SQLPostgresConfiguration(url: url) } catch {
            throw .unavailable("\(location) is not a usable PostgreSQL URL: \(error)")
        }
        configuration.coreConfiguration.options.connectTimeout = .seconds(10)
        do {
            try await migrate(configuration, location: location, logger: logger)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .unavailable("cannot prepare \(location): \(PostgresFailure.reason(error))")
        }
        let pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnectionsPerEventLoop: 4,
            requestTimeout: .seconds(10), logger: logger, on: MultiThreadedEventLoopGroup.singleton
        )
        let db = pool.database(logger: logger).sql(queryLogLevel: nil)
        return ProviderStore(db: db, location: location, close: { try await pool.shutdownAsync() })
    }

    /// Runs the migrations on one connection holding the advisory lock.
    private static func migrate(_ configuration: SQLPostgresConfiguration, location: StoreLocation, logger: Logger) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration.coreConfiguration, id: 0, logger: logger
            )
        } catch {
            throw StoreError.unavailable(
                "cannot connect to \(location): \(PostgresFailure.reason(error)); is the server running, and is the URL right?")
        }
        let db = connection.sql(queryLogLevel: nil)
        do {
            try await db.raw("SELECT pg_advisory_lock(\(bind: migrationLockKey))").run()
            try await StoreMigrations.run(on: db)
            try await db.raw("SELECT pg_advisory_unlock(\(bind: migrationLockKey))").run()
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
