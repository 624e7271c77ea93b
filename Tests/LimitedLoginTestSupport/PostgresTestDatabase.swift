import Foundation
import Logging
import NIOPosix
@preconcurrency import PostgresKit

/// The throwaway PostgreSQL server `scripts/test` starts (`scripts/postgres-for-tests`), and a fresh
/// empty database on it for each test.
public enum PostgresTestDatabase {
    /// The server's URL, from `LIMITED_LOGIN_TEST_POSTGRES_URL`; nil when no server was started (then the
    /// PostgreSQL variants of the tests do not run: `scripts/test` always starts one).
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment["LIMITED_LOGIN_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public struct NotConfigured: Error, CustomStringConvertible {
        public var description: String { "LIMITED_LOGIN_TEST_POSTGRES_URL is not set: run the tests through scripts/test" }
    }

    /// Creates a new, empty database on the server and returns its URL.
    public static func create() async throws -> String {
        guard let server = serverURL, var components = URLComponents(string: server) else { throw NotConfigured() }
        let configuration = try SQLPostgresConfiguration(url: server)
        let logger = Logger(label: "postgres-test-database", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration.coreConfiguration, id: 1, logger: logger
        )
        let name = "ll_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        do {
            try await connection.sql(queryLogLevel: nil).raw("CREATE DATABASE \(ident: name)").run()
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
        components.path = "/" + name
        return components.string ?? server
    }
}
