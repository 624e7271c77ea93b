import ArgumentParser
import Foundation
import LimitedLoginProvider
import LimitedLoginVerifier
import Logging
import NIOCore
import Synchronization

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

    @Option(
        name: .customLong("public-url"),
        help: "The URL apps and browsers reach the provider at, when it is behind a proxy (default: http://HOST:PORT).")
    var publicURL: String?

    @Option(help: "A JSON file of apps and test users to load at start (see above).")
    var fixtures: String?

    @Option(
        name: .customLong("admin-token"),
        help: "The admin API's bearer token, at least 16 characters (default: made at first start, printed once, kept in the store).")
    var adminToken: String?

    @Flag(name: .customLong("no-demo-data"), help: "Do not seed the demo app and test users into an empty store.")
    var noDemoData = false

    @Flag(name: .customLong("no-user-picker"), help: "Do not offer test users to pick on the sign-in page: every sign-in needs email and password.")
    var noUserPicker = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(name: .customLong("log-format"), help: "text (default), or json: one JSON object per line on standard error, for log shippers.")
    var logFormat = "text"

    @Option(
        name: .customLong("request-log"),
        help: "The level of each answered request's line: info (default: every request is logged) or debug (logged only with --log-level debug).")
    var requestLog = "info"

    @Option(name: .customLong("id-token-lifetime"), help: "Seconds from an ID token's iat to its exp.")
    var idTokenLifetime: Int64 = TokenLifetimes.defaultIDToken

    @Option(name: .customLong("access-token-lifetime"), help: "Seconds a classic access token lasts.")
    var accessTokenLifetime: Int64 = TokenLifetimes.defaultAccessToken

    @Option(name: .customLong("data-access-lifetime"), help: "Seconds data access lasts after a login; then me/permissions says expired.")
    var dataAccessLifetime: Int64 = TokenLifetimes.defaultDataAccess

    @Option(
        help:
            "Run this shell command (under bash when installed, else /bin/sh; in its own process group; this binary's folder first on PATH) once the provider accepts connections, with LIMITED_LOGIN_URL, _PROVIDER, _ISSUER, _DISCOVERY_URL, _JWKS_URL, _APP_ID and _ADMIN_TOKEN set (and _CA_FILE with --tls); then stop and exit with its status as soon as it exits. Processes it left running get SIGTERM, then SIGKILL after 5 s; SIGTERM, SIGINT or SIGHUP to serve is passed on to it, the provider answering until it ends (SIGKILL 5 s after the signal if it has not)."
    )
    var exec: String?

    @Option(
        name: .customLong("export-on-exit"),
        help:
            "When the provider stops, write its state (as 'export --include-keys' prints it) to this file, for --fixtures to load back; serve exits 73 when it cannot be written."
    )
    var exportOnExit: String?

    @Option(
        name: .customLong("ready-file"),
        help:
            "Write a JSON object (url, issuer, discovery_url, jwks_url, certs_url, admin_token, pid, apps, users) to this file once the provider accepts connections; removed at start and when serve stops."
    )
    var readyFile: String?

    // Connection limits (ConnectionLimits): slow, idle or too many clients cannot hold connections open.
    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp(
            "Seconds a request head may take to arrive, from its first byte (from the connection's opening for the first request), whatever the byte rate.",
            valueName: "seconds"))
    var headerTimeout = Int(ConnectionLimits().headerTimeout.components.seconds)

    @Option(
        name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a keep-alive connection may wait for its next request.", valueName: "seconds"))
    var idleTimeout = Int(ConnectionLimits().idleTimeout.components.seconds)

    @Option(
        name: .customLong("body-timeout"),
        help: ArgumentHelp("Seconds a request body may take to arrive, from the end of its head.", valueName: "seconds"))
    var bodyTimeout = Int(ConnectionLimits().bodyTimeout.components.seconds)

    @Flag(
        name: .customLong("tls"),
        help:
            "Serve HTTPS with a certificate from a local certificate authority (made once, kept in the store) for this address and www., m., limited., www.limited., graph., ep1. and ep2.facebook.com; tokens then carry the real issuer, https://www.facebook.com. Trust the CA ('limited-login ca export') where clients run."
    )
    var tls = false

    @Flag(
        name: .customLong("init"),
        help:
            "Make a store in an existing --database file that is otherwise refused: an empty file (what a failed copy looks like) or an SQLite database without the provider's tables."
    )
    var initializeStore = false

    @Option(name: .customLong("ca-file"), help: "With --tls: write the local CA's certificate (PEM, no private key) to this file at start.")
    var caFile: String?

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp("The most connections open at once; more are closed as soon as they are accepted.", valueName: "count"))
    var maxConnections = ConnectionLimits().maximumConnections

    @Option(
        name: .customLong("max-connections-per-address"),
        help: ArgumentHelp(
            "The most connections one client address may hold, so one client cannot lock the others out (default: a quarter of --max-connections, at least 16). Behind a reverse proxy, set it to --max-connections.",
            valueName: "count"
        )
    )
    var maxConnectionsPerAddress: Int?

    /// The limits the options give, or the first one out of range.
    var connectionLimits: ConnectionLimits {
        get throws {
            for (flag, seconds) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout)]
            where !(1...86400).contains(seconds) {
                throw ValidationError("\(flag) must be between 1 and 86400 seconds.")
            }
            guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be between 1 and 1000000.") }
            if let maxConnectionsPerAddress, !(1...maxConnections).contains(maxConnectionsPerAddress) {
                throw ValidationError("--max-connections-per-address must be between 1 and --max-connections (\(maxConnections)).")
            }
            return ConnectionLimits(
                headerTimeout: .seconds(headerTimeout), idleTimeout: .seconds(idleTimeout), bodyTimeout: .seconds(bodyTimeout),
                maximumConnections: maxConnections, maximumConnectionsPerAddress: maxConnectionsPerAddress
            )
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        for (flag, value) in [
            ("--id-token-lifetime", idTokenLifetime), ("--access-token-lifetime", accessTokenLifetime),
            ("--data-access-lifetime", dataAccessLifetime),
        ] {
            guard (1...(10 * 366 * 86400)).contains(value) else {
                throw ValidationError("\(flag) must be a number of seconds from 1 to 316224000 (ten years).")
            }
        }
        if let exec, exec.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--exec needs a command.") }
        guard LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json.")
        }
        guard requestLog == "info" || requestLog == "debug" else {
            throw ValidationError("--request-log must be info or debug.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        if let issuer, URL(string: issuer)?.scheme == nil { throw ValidationError("--issuer must be a URL, e.g. https://www.facebook.com.") }
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) {
            throw ValidationError("--public-url must start with http:// or https://.")
        }
        _ = try connectionLimits
        if caFile != nil, !tls { throw ValidationError("--ca-file goes with --tls.") }
    }

    func run() async throws {
        if let adminToken, let problem = AdminTokenPolicy.problem(with: adminToken) {
            throw CommandFailure.fail("limited-login serve: --admin-token (or LIMITED_LOGIN_ADMIN_TOKEN): \(problem).", code: 64)
        }
        // Files written later (once running, or on exit) are checked now: a mistake ends serve at once.
        for (flag, path) in [("--ready-file", readyFile), ("--export-on-exit", exportOnExit), ("--ca-file", caFile)] {
            if let path, let problem = PrivateFile.problem(writing: path, flag: flag) {
                throw CommandFailure.fail("limited-login serve: \(problem).", code: 73)
            }
        }
        if let readyFile { ReadyFile.remove(readyFile) }
        let logger = (LogFormat(rawValue: logFormat) ?? .text).logger(level: Logger.Level(rawValue: logLevel) ?? .info)
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
        var configuration = ProviderConfiguration(
            host: host, port: port, store: store, issuer: issuer, publicBaseURL: publicURL, fixtures: loadedFixtures,
            seedsDemoData: !noDemoData, adminToken: adminToken,
            lifetimes: TokenLifetimes(idToken: idTokenLifetime, accessToken: accessTokenLifetime, dataAccess: dataAccessLifetime),
            userPicker: !noUserPicker,
            connectionLimits: try connectionLimits
        )
        configuration.tls = tls
        configuration.initializesStore = initializeStore
        configuration.startsServerWhilePreparing = true
        configuration.requestLogLevel = requestLog == "debug" ? .debug : .info
        // With --exec the signals are the command's (ExecSignals), taken from here on.
        let execSignals = exec.map { _ in ExecSignals(grace: ServeExec.leftoverGrace) }
        configuration.stopsOnSignals = execSignals == nil
        let starting = "Starting the provider (\(store))…"
        if exec != nil { printErrorLine(starting) } else { printLine(starting) }
        OpenFileLimit.makeRoom(forConnections: configuration.connectionLimits.maximumConnections, logger: logger)
        ReturnedMemory.enable()
        let provider: LimitedLoginProvider
        do {
            provider = try await LimitedLoginProvider.prepare(configuration, logger: logger)
        } catch {
            throw CommandFailure.fail("limited-login serve: cannot start: \(describe(error))")
        }
        let writtenCA = try ServeCertificateAuthorityFile.write(provider.certificateAuthorityPEM, to: caFile, forExec: exec != nil)
        let seeded = provider.seededDemoData
        let madeAdminToken = provider.madeAdminToken ? provider.adminToken : nil
        // The banner's apps and users, read while the server binds its port (docs/PERFORMANCE.md, "Start").
        let listing = Task { () async throws -> (apps: [AppRecord], users: [TestUserRecord]) in
            (try await provider.store.apps(), try await provider.store.users())
        }
        let started = AsyncStream<String>.makeStream()
        let readyFile = self.readyFile
        let quiet = exec != nil
        let (host, publicURL) = (self.host, self.publicURL)
        let onRunning: @Sendable (String) async -> Void = { baseURL in
            let apps: [AppRecord]
            let users: [TestUserRecord]
            do { (apps, users) = try await listing.value } catch {
                // The store answered every read of the start a moment ago; without its apps there is no banner
                // nor ready file to give, so the start fails as any failed read of it would.
                printErrorLine("limited-login serve: cannot start: \(describe(error))")
                Foundation.exit(1)
            }
            let banner = ServeBanner(
                provider: provider, apps: apps, users: users, caFile: writtenCA, seededDemoData: seeded, madeAdminToken: madeAdminToken,
                host: host, publicURL: publicURL
            )
            // With --exec the command's output is the run's: the banner goes to standard error.
            if quiet { printErrorLine(banner.text(baseURL: baseURL)) } else { printLine(banner.text(baseURL: baseURL)) }
            if let readyFile {
                do { try ReadyFile.write(ReadyFile.document(provider: provider, apps: apps, users: users), to: readyFile) } catch {
                    printErrorLine("limited-login serve: \(error)")
                }
            }
            started.continuation.yield(baseURL)
            started.continuation.finish()
        }
        // The CA file made for the command alone (no --ca-file) goes with the run.
        let temporaryCA = caFile == nil ? writtenCA : nil
        let export = ExportResult()
        let closing = closingSteps(export: export, temporaryCA: temporaryCA)
        guard let exec else {
            do { try await provider.run(onRunning: onRunning, beforeClosing: closing) } catch {
                throw CommandFailure.fail("limited-login serve: \(describe(error))")
            }
            if export.failed { throw ExitCode(Self.exportFailedStatus) }
            return
        }
        let status: Int32
        do {
            status = try await ServeExec.serve(
                provider, runningThen: exec, apps: try await listing.value.apps, caFile: writtenCA, onRunning: onRunning, beforeClosing: closing,
                started: started.stream, signals: execSignals ?? ExecSignals(grace: ServeExec.leftoverGrace)
            )
        } catch {
            throw CommandFailure.fail("limited-login serve: \(describe(error))")
        }
        // The command's own failure is the run's; a run that passed without its state file did not pass.
        throw ExitCode(status == 0 && export.failed ? Self.exportFailedStatus : status)
    }

    /// The exit status of a run whose `--export-on-exit` file could not be written (EX_CANTCREAT).
    static let exportFailedStatus: Int32 = 73

    /// What serve does once the server has stopped, before the store closes: the ready file and a temporary
    /// CA file removed, and with `--export-on-exit` the state written (`export` told when it cannot be).
    private func closingSteps(export: ExportResult, temporaryCA: String?) -> @Sendable (LimitedLoginProvider) async -> Void {
        let path = exportOnExit
        let readyFile = self.readyFile
        return { provider in
            // The server has stopped: the ready file no longer describes a provider.
            if let readyFile { ReadyFile.remove(readyFile) }
            if let temporaryCA { try? FileManager.default.removeItem(atPath: temporaryCA) }
            guard let path else { return }
            do {
                let data = try await provider.exportState(includingKeys: true)
                try PrivateFile.write(data, to: path)
                printErrorLine("limited-login serve: state written to \(path)")
            } catch {
                printErrorLine("limited-login serve: cannot write the state to \(path): \(error)")
                export.fail()
            }
        }
    }

    /// One clause for a failure to start or run: the port in use says which and what to do.
    func describe(_ error: any Error) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE:
                return "port \(port) on \(host) is in use by another program; choose another with --port, or --port 0 for a free one"
            case EACCES:
                return
                    "cannot listen on port \(port) on \(host) (permission denied; ports below 1024 need privileges); choose another with --port, or --port 0 for a free one"
            case EADDRNOTAVAIL:
                return "cannot listen on \(host): it is not an address of this machine; use --host 127.0.0.1, or 0.0.0.0 for every interface"
            default:
                break
            }
        }
        if let error = error as? StoreError { return error.description }
        return TransportFailure.reason(error)
    }
}

/// Whether `--export-on-exit` failed: set by serve's closing step, read once serve has stopped.
final class ExportResult: Sendable {
    private let failedFlag = Atomic<Bool>(false)
    var failed: Bool { failedFlag.load(ordering: .relaxed) }
    func fail() { failedFlag.store(true, ordering: .relaxed) }
}
