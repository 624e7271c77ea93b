import ArgumentParser
import Foundation
import LimitedLoginProvider
import Logging

/// `limited-login serve`: runs the provider.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Limited Login provider (dialog, OIDC discovery, JWKS, certificates, uninstall).",
        discussion: """
            With no options it listens on http://127.0.0.1:8080 and keeps its state in ./limited-login.sqlite. \
            On first start it creates a signing key, a demo app and three test users who are friends \
            (alice@example.com, bob@example.com, carol@example.com; password "password"), and prints the URLs \
            to use. State (keys, apps, users, grants, app-scoped IDs) survives restarts; one process serves a \
            database file at a time. Several processes (behind a load balancer) share a PostgreSQL database: \
            --database postgres://user:password@host:5432/database, the same --issuer and --admin-token on each. \
            GET /health answers load balancers, GET /metrics Prometheus; SIGTERM lets requests in flight finish.

            A fixtures file holds apps and test users; optional fields may be left out, \
            friends are IDs or emails:
              {"apps": [{"id": "1234", "name": "My App", "secret": "s3cret",
                 "redirect_uris": ["https://app.example/cb"],
                 "business_id": "77"}],
               "users": [{"id": "100001", "first_name": "Alice",
                 "middle_name": "Q", "last_name": "Smith",
                 "email": "alice@example.com", "password": "pw",
                 "birthday": "04/22/1990", "gender": "female",
                 "hometown": {"id": "1", "name": "Paris"},
                 "location": {"id": "2", "name": "Lyon"},
                 "link": "https://example.com/alice",
                 "friends": ["bob@example.com"]}]}
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "The SQLite database file (created if missing), :memory: for a throwaway store, or a postgres:// URL shared by several nodes.")
    var database = "limited-login.sqlite"

    @Option(help: "The 'iss' of issued ID tokens (default: the public base URL), e.g. https://www.facebook.com.")
    var issuer: String?

    @Option(name: .customLong("public-url"), help: "The URL apps and browsers reach the provider at, when it is behind a proxy (default: http://HOST:PORT).")
    var publicURL: String?

    @Option(help: "A JSON file of apps and test users to load at start (see above).")
    var fixtures: String?

    @Option(name: .customLong("admin-token"), help: "The admin API's bearer token (default: made at first start, printed once, kept in the store).")
    var adminToken: String?

    @Flag(name: .customLong("no-demo-data"), help: "Do not seed the demo app and test users into an empty store.")
    var noDemoData = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        if let issuer, URL(string: issuer)?.scheme == nil { throw ValidationError("--issuer must be a URL, e.g. https://www.facebook.com.") }
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) {
            throw ValidationError("--public-url must start with http:// or https://.")
        }
    }

    func run() async throws {
        var logger = Logger(label: "limited-login")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let store: StoreLocation
        let loadedFixtures: ProviderFixtures?
        do {
            store = try StoreLocation(argument: database)
            loadedFixtures = try fixtures.map { path throws(FixturesError) in try ProviderFixtures.load(path: path) }
        } catch let error as StoreError {
            throw CommandFailure.fail("limited-login serve: \(error.description)", code: 64)
        } catch let error as FixturesError {
            throw CommandFailure.fail("limited-login serve: \(error.description)", code: 64)
        }
        let configuration = ProviderConfiguration(
            host: host, port: port, store: store, issuer: issuer, publicBaseURL: publicURL, fixtures: loadedFixtures,
            seedsDemoData: !noDemoData, adminToken: adminToken
        )
        printLine("Starting the provider (\(store))…")
        let provider: LimitedLoginProvider
        do {
            provider = try await LimitedLoginProvider.prepare(configuration, logger: logger)
        } catch {
            throw CommandFailure.fail("limited-login serve: cannot start: \(Self.describe(error))")
        }
        let seeded = provider.seededDemoData
        let madeAdminToken = provider.madeAdminToken ? provider.adminToken : nil
        let apps = try await provider.store.apps()
        do {
            try await provider.run { baseURL in
                let urls = provider.urls
                var lines = [
                    "Limited Login provider running at \(baseURL)",
                    "  issuer:     \(urls.issuer)",
                    "  discovery:  \(urls.discoveryURL)",
                    "  JWKS:       \(urls.jwksURL)",
                    "  certs:      \(urls.certificatesURL)",
                ]
                if seeded { lines.append("First start: seeded the demo app and test users (password \"password\").") }
                if let madeAdminToken {
                    lines.append("Admin token (shown once; keep it): \(madeAdminToken)")
                    lines.append("  e.g. limited-login keys list --provider \(baseURL) --admin-token \(madeAdminToken)")
                }
                for app in apps {
                    lines.append("  app \(app.name): ID \(app.id)")
                }
                if let first = apps.first {
                    lines.append("Open a limited login dialog for \(first.name):")
                    lines.append("  \(urls.limitedDialogURL(appID: first.id))")
                }
                lines.append("Home page: \(baseURL)/   (Ctrl-C stops)")
                printLine(lines.joined(separator: "\n"))
            }
        } catch {
            throw CommandFailure.fail("limited-login serve: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }
}
