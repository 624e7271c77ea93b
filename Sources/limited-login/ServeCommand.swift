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

    @OptionGroup(title: "Network") var network: ServeNetworkOptions
    @OptionGroup(title: "Store") var store: ServeStoreOptions
    @OptionGroup(title: "Tokens") var tokens: ServeTokenOptions
    @OptionGroup(title: "HTTPS") var https: ServeTLSOptions
    @OptionGroup(title: "Harness") var harness: ServeHarnessOptions
    @OptionGroup(title: "Logging") var logging: ServeLoggingOptions

    func run() async throws {
        if let adminToken = harness.adminToken, let problem = AdminTokenPolicy.problem(with: adminToken) {
            throw CommandFailure.fail("limited-login serve: --admin-token (or LIMITED_LOGIN_ADMIN_TOKEN): \(problem).", code: 64)
        }
        // Files written later (once running, or on exit) are checked now: a mistake ends serve at once.
        for (flag, path) in [("--ready-file", harness.readyFile), ("--export-on-exit", store.exportOnExit), ("--ca-file", https.caFile)] {
            if let path, let problem = PrivateFile.problem(writing: path, flag: flag) {
                throw CommandFailure.fail("limited-login serve: \(problem).", code: 73)
            }
        }
        if let readyFile = harness.readyFile { ReadyFile.remove(readyFile) }
        if harness.exitWithStandardInput { StandardInputWatch.stopWhenClosed() }
        let logger = logging.logger
        let (location, loadedFixtures) = try store.load()
        var configuration = ProviderConfiguration(
            host: network.host, port: network.port, store: location, issuer: tokens.issuer, publicBaseURL: network.publicURL,
            fixtures: loadedFixtures, seedsDemoData: !store.noDemoData, adminToken: harness.adminToken, lifetimes: tokens.lifetimes,
            userPicker: !harness.noUserPicker, connectionLimits: try network.connectionLimits
        )
        configuration.tls = https.tls
        configuration.trustedProxies = try network.proxies
        configuration.initializesStore = store.initializeStore
        configuration.requestLogLevel = logging.requestLog == "debug" ? .debug : .info
        configuration.publicMetrics = logging.publicMetrics
        configuration.allowsPrivateCallbacks = network.allowPrivateCallbacks
        // With --exec the signals are the command's (ExecSignals), taken from here on.
        let exec = harness.exec
        let execSignals = exec.map { _ in ExecSignals(grace: ServeExec.leftoverGrace) }
        configuration.stopsOnSignals = execSignals == nil
        let starting = "Starting the provider (\(location))…"
        if exec != nil { printErrorLine(starting) } else { printLine(starting) }
        OpenFileLimit.makeRoom(forConnections: configuration.connectionLimits.maximumConnections, logger: logger)
        ReturnedMemory.enable()
        let provider: LimitedLoginProvider
        do {
            provider = try await LimitedLoginProvider.prepare(configuration, logger: logger)
        } catch {
            // A store from a newer release: 73, as a file this binary cannot write (EX_CANTCREAT).
            let status: Int32 = if case .newerSchema? = error as? StoreError { 73 } else { 1 }
            throw CommandFailure.fail("limited-login serve: cannot start: \(describe(error))", code: status)
        }
        let writtenCA = try ServeCertificateAuthorityFile.write(provider.certificateAuthorityPEM, to: https.caFile, forExec: exec != nil)
        let seeded = provider.seededDemoData
        let madeAdminToken = provider.madeAdminToken ? provider.adminToken : nil
        // The banner's apps and first users, read while the server binds its port; every user only for a ready
        // file (reading 100,000 took most of a start).
        let listsEveryUser = harness.readyFile != nil
        let listing = Task { () async throws -> (apps: [AppRecord], users: [TestUserRecord], userCount: Int) in
            let apps = try await provider.store.apps()
            if listsEveryUser {
                let users = try await provider.store.users()
                return (apps, users, users.count)
            }
            let (users, count) = try await provider.store.firstUsers(ServeBanner.usersInBanner)
            return (apps, users, count)
        }
        let started = AsyncStream<String>.makeStream()
        let readyFile = harness.readyFile
        let quiet = exec != nil
        let (host, publicURL) = (network.host, network.publicURL)
        let onRunning: @Sendable (String) async -> Void = { baseURL in
            let apps: [AppRecord]
            let users: [TestUserRecord]
            let userCount: Int
            do { (apps, users, userCount) = try await listing.value } catch {
                // The store answered every read of the start a moment ago; without its apps there is no banner
                // nor ready file to give, so the start fails as any failed read of it would.
                printErrorLine("limited-login serve: cannot start: \(describe(error))")
                Foundation.exit(1)
            }
            let banner = ServeBanner(
                provider: provider, apps: apps, users: Array(users.prefix(ServeBanner.usersInBanner)), userCount: userCount, caFile: writtenCA,
                seededDemoData: seeded, madeAdminToken: madeAdminToken,
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
        let temporaryCA = https.caFile == nil ? writtenCA : nil
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
}
