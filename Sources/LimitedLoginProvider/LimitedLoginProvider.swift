import Foundation
import Hummingbird
import Logging
import NIOSSL
import ServiceLifecycle

/// A Limited Login identity provider: prepare it (store, keys, fixtures), then serve its router.
///
/// ```swift
/// let provider = try await LimitedLoginProvider.prepare(ProviderConfiguration(store: .sqliteMemory), logger: logger)
/// try await provider.run { baseURL in print("listening on", baseURL) }
/// ```
public struct LimitedLoginProvider: Sendable {
    public let configuration: ProviderConfiguration
    package let store: ProviderStore
    public let urls: ProviderURLs
    /// True when this start seeded the demo app and users into an empty store.
    public let seededDemoData: Bool
    /// The admin API's bearer token.
    public let adminToken: String
    /// True when this start made the admin token (print it: it is not shown again).
    public let madeAdminToken: Bool
    let services: ProviderServices
    /// The local certificate authority's certificate (PEM, no key) when serving HTTPS (`serve --tls`):
    /// what a client must trust to reach the provider.
    public var certificateAuthorityPEM: String? { services.tls?.authority.certificatePEM }
    /// The provider's time, which tests move (`/_admin/clock`).
    public var clock: ProviderClock { services.clock }

    /// Opens the store, applies fixtures (and the demo data on an empty store), and loads or makes the
    /// signing key.
    public static func prepare(_ configuration: ProviderConfiguration, logger: Logger) async throws -> LimitedLoginProvider {
        let clock = ProviderClock()
        return try await ProviderTime.$clock.withValue(clock) { try await prepare(configuration, clock: clock, logger: logger) }
    }

    private static func prepare(_ configuration: ProviderConfiguration, clock: ProviderClock, logger: Logger) async throws -> LimitedLoginProvider {
        if let configured = configuration.adminToken, let problem = AdminTokenPolicy.problem(with: configured) {
            throw ProviderConfigurationError(description: problem)
        }
        let scheme = configuration.tls ? "https" : "http"
        let issuer = configuration.issuer ?? (configuration.tls ? FacebookHosts.issuer : nil)
        let standsInForFacebook = configuration.tls && configuration.publicBaseURL == nil && issuer == FacebookHosts.issuer
        let urls = ProviderURLs(
            baseURL: configuration.publicBaseURL ?? "\(scheme)://\(Self.hostForURL(configuration.host)):\(configuration.port)",
            issuer: issuer, pictureBase: standsInForFacebook ? "https://" + FacebookHosts.graph : nil
        )
        let store = try await ProviderStore.open(configuration.store, logger: logger, initializing: configuration.initializesStore)
        // The store and the keys read this clock, whether or not a request is in scope.
        store.useClock(clock)
        do {
            let loader = FixtureLoader(store: store, logger: logger)
            // An export's clock comes back first: what is loaded after it happens at the exported time.
            if let offset = configuration.fixtures?.clockOffset, offset != 0 { try clock.advance(by: offset, force: true) }
            if let fixtures = configuration.fixtures { try await loader.load(fixtures) }
            // The settings a start reads, in one query (docs/PERFORMANCE.md, "Start"); those never set are made below.
            let settings = try await store.settingValues([
                AdminStateController.emptiedSetting, Self.csrfSecretSetting, UserTokenNonce.secretSetting, Self.adminTokenSetting,
                ConsoleEpoch.adminTokenSetting,
            ])
            func setting(_ name: String, orInsert makeValue: () -> String) async throws(StoreError) -> String {
                if let value = settings[name] { return value }
                return try await store.setting(name, orInsert: makeValue)
            }
            // A store emptied on purpose (`reset --empty`) stays empty across restarts.
            let emptiedOnPurpose = settings[AdminStateController.emptiedSetting] == "1"
            let seeded = configuration.seedsDemoData && !emptiedOnPurpose ? try await loader.seedDemoDataIfEmpty() : false
            let tls =
                configuration.tls
                ? try await ServerTLS.prepare(store: store, host: configuration.host, publicBaseURL: configuration.publicBaseURL)
                : nil
            let keyring = SigningKeyring(
                store: store, certificateCommonName: "limited-login provider", retention: configuration.lifetimes.keyRetention
            )
            _ = try await keyring.prepare()
            let csrfSecret = try await setting(Self.csrfSecretSetting) { RandomIdentifiers.secret() }
            let userTokenNonceSecret = try await setting(UserTokenNonce.secretSetting) { RandomIdentifiers.secret() }
            var madeAdminToken = false
            let adminToken: String
            if let configured = configuration.adminToken {
                adminToken = configured
            } else {
                let candidate = "admin-" + RandomIdentifiers.secret(byteCount: 24)
                adminToken = try await setting(Self.adminTokenSetting) { candidate }
                madeAdminToken = adminToken == candidate
            }
            try await ConsoleEpoch.noteAdminToken(adminToken, stored: settings[ConsoleEpoch.adminTokenSetting], in: store)
            let services = ProviderServices(
                configuration: configuration, store: store, keyring: keyring, urls: urls, pages: PageRenderer(),
                csrf: CSRFProtection(secret: csrfSecret), userTokenNonce: UserTokenNonce(secret: userTokenNonceSecret), logger: logger,
                clock: clock, tls: tls
            )
            if let fixtures = configuration.fixtures { try await StateImport(store: store).loadScenarios(fixtures, into: services.scenarios) }
            // A shared store's clock is the cluster's: an import's offset is published, else the stored one adopted.
            if configuration.fixtures?.clockOffset != nil {
                try await services.clusterClock.publish(offset: clock.offset)
            } else {
                await services.clusterClock.refreshIfDue(now: true)
            }
            // Callbacks the last run left undelivered, on the clock just adopted (their times are on it).
            await services.callbacks.resumePending()
            return LimitedLoginProvider(
                configuration: configuration, store: store, urls: urls, seededDemoData: seeded, adminToken: adminToken,
                madeAdminToken: madeAdminToken, services: services
            )
        } catch {
            await store.close()
            throw error
        }
    }

    static let csrfSecretSetting = "csrf_secret"
    static let adminTokenSetting = "admin_token"

    private static func hostForURL(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Every route of the provider.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ProviderRequestMiddleware(services: services))
        HomeController(services: services).addRoutes(to: router)
        FaviconController().addRoutes(to: router)
        AssetsController().addRoutes(to: router)
        HealthController(services: services).addRoutes(to: router)
        MetricsController(services: services, adminToken: adminToken).addRoutes(to: router)
        DialogController(services: services).addRoutes(to: router)
        OpenIDController(services: services).addRoutes(to: router)
        UninstallController(services: services).addRoutes(to: router)
        CodeExchangeController(services: services).addRoutes(to: router)
        DemoCallbackController(services: services).addRoutes(to: router)
        AdminController(services: services, adminToken: adminToken).addRoutes(to: router)
        ConsoleController(services: services, adminToken: adminToken).addRoutes(to: router)
        GraphController(services: services).addRoutes(to: router)
        TestUsersController(services: services).addRoutes(to: router)
        DebugTokenController(services: services).addRoutes(to: router)
        return router
    }

    /// A Hummingbird application serving the provider on the configured host and port, within the
    /// configured ``ConnectionLimits``. When the port is 0 and no public URL was configured, the base URL
    /// (and default issuer) follow the bound port.
    public func application(
        onRunning: @escaping @Sendable (_ baseURL: String) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let urls = self.urls
        // The first health check runs while the server binds its port (docs/PERFORMANCE.md, "Start").
        HealthController(services: services).checkSoon()
        return Self.application(
            responder: router().buildResponder(), configuration: configuration, urls: urls,
            tls: services.tls?.configuration, logger: services.logger
        ) { _ in await onRunning(urls.baseURL) }
    }

    /// The server's application around `responder`, on the configured host and port within the configured
    /// ``ConnectionLimits``; `onRunning` runs once the port is bound (it is given the port), after the base URL
    /// follows it.
    private static func application<Responder: HTTPResponder>(
        responder: Responder, configuration: ProviderConfiguration, urls: ProviderURLs, tls: TLSConfiguration?, logger: Logger,
        onRunning: @escaping @Sendable (_ port: Int?) async -> Void
    ) -> some ApplicationProtocol where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let followsPort = configuration.publicBaseURL == nil
        let host = hostForURL(configuration.host)
        let scheme = tls == nil ? "http" : "https"
        return Application(
            responder: responder,
            server: .http1(limits: configuration.connectionLimits, logger: logger, tls: tls),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "limited-login"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port
                if followsPort, let port {
                    urls.setBaseURL("\(scheme)://\(host):\(port)")
                }
                await onRunning(port)
            },
            logger: logger
        )
    }

    /// The state in the fixtures file's shape, for `serve --fixtures` to load back (`StateExport`).
    public func exportState(includingKeys: Bool) async throws -> Data {
        try await ProviderTime.$clock.withValue(services.clock) {
            try await StateExport(store: store, clock: services.clock, scenarios: services.scenarios).json(includingKeys: includingKeys)
        }
    }

    /// Serves until the task is cancelled or the process gets SIGINT / SIGTERM, then closes the store.
    /// `beforeClosing` runs once the server has stopped, while the store is still open (`--export-on-exit`).
    /// `stop` starts once the server accepts connections; when it returns, the server shuts down as gracefully
    /// as on SIGTERM (`serve --exec`: the command ended; a test's body).
    public func run(
        onRunning: @escaping @Sendable (_ baseURL: String) async -> Void = { _ in },
        beforeClosing: @escaping @Sendable (LimitedLoginProvider) async -> Void = { _ in },
        until stop: (@Sendable () async -> Void)? = nil
    ) async throws {
        let running = AsyncStream<Void>.makeStream()
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    application { baseURL in
                        await onRunning(baseURL)
                        running.continuation.finish()
                    }
                ],
                gracefulShutdownSignals: configuration.stopsOnSignals ? [.sigterm, .sigint] : [], logger: services.logger
            ))
        do {
            // Each task says whether it was the server's.
            try await withThrowingTaskGroup(of: Bool.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return true
                }
                if let stop {
                    tasks.addTask {
                        for await _ in running.stream {}
                        guard !Task.isCancelled else { return false }
                        await stop()
                        await group.triggerGracefulShutdown()
                        return false
                    }
                }
                // `stop` returning starts a graceful shutdown: wait for the server to finish it. The server
                // ending first (a signal, a failure) ends the wait for `stop`.
                while let serverEnded = try await tasks.next() {
                    if serverEnded { tasks.cancelAll() }
                }
            }
        } catch {
            await closing(beforeClosing)
            throw error
        }
        await closing(beforeClosing)
    }

    /// Runs the last step and closes the store, in a task of its own: a cancelled run still gets both.
    private func closing(_ beforeClosing: @escaping @Sendable (LimitedLoginProvider) async -> Void) async {
        let provider = self
        await Task {
            await beforeClosing(provider)
            await provider.store.close()
        }.value
    }
}
