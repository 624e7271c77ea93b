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

    static let logger = Logger(label: "postgres-test-database", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` on a connection to the database at `url`, closed afterwards whatever happens.
    static func withConnection(to url: String, _ body: (PostgresConnection) async throws -> Void) async throws {
        let configuration = try SQLPostgresConfiguration(url: url)
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration.coreConfiguration, id: 1, logger: logger
        )
        do {
            try await body(connection)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Creates a new, empty database on the server and returns its URL.
    public static func create() async throws -> String {
        guard let server = serverURL, var components = URLComponents(string: server) else { throw NotConfigured() }
        let name = "ll_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withConnection(to: server) { try await $0.sql(queryLogLevel: nil).raw("CREATE DATABASE \(ident: name)").run() }
        components.path = "/" + name
        return components.string ?? server
    }

    /// The statements of `script`: split at each semicolon outside a quoted string or identifier, with `--`
    /// comment lines left out (what `pg_dump --inserts` writes; its strings are standard, `''` inside).
    public static func statements(of script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var quote: Character?
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            // Comment lines, and psql's own meta-commands (`\restrict` in newer dumps), are no statements.
            if quote == nil, line.hasPrefix("--") || line.hasPrefix("\\") { continue }
            for character in line {
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "'" || character == "\"" {
                    quote = character
                } else if character == ";" {
                    let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !statement.isEmpty { statements.append(statement) }
                    current = ""
                    continue
                }
                current.append(character)
            }
            current.append("\n")
        }
        return statements
    }

    /// Runs `script` (as `pg_dump --inserts` writes it) in the database at `url`, statement by statement.
    public static func run(script: String, in url: String) async throws {
        try await withConnection(to: url) { connection in
            for statement in statements(of: script) {
                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
            }
        }
    }
}
