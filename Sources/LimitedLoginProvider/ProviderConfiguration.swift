import Logging

/// How a provider is set up. Every property has a default that works with no configuration.
public struct ProviderConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// Where state lives.
    public var store: StoreLocation
    /// The `iss` of issued tokens; the public base URL when nil.
    public var issuer: String?
    /// The URL people and apps reach the provider at; `http://{host}:{port}` when nil.
    public var publicBaseURL: String?
    /// Apps and test users to load at start.
    public var fixtures: ProviderFixtures?
    /// Seed a demo app and test users into an empty store.
    public var seedsDemoData: Bool
    /// How long a dialog sign-in lasts, in seconds.
    public var sessionLifetime: Int64
    /// The largest request body accepted, in bytes.
    public var maximumBodySize: Int
    /// The admin API's bearer token; when nil, one is made at first start and kept in the store. A token
    /// given here must pass ``AdminTokenPolicy`` (at least 16 characters), or the provider does not start.
    public var adminToken: String?
    /// How many wrong admin tokens one address may give before the admin API and the console answer 429.
    public var adminTokenAttemptLimits = AdminTokenAttemptLimits()
    /// How long tokens, access and codes last (``TokenLifetimes``).
    public var lifetimes: TokenLifetimes
    /// Offer test users to pick on the sign-in page (only users marked pickable); when false the page
    /// has no picker and every sign-in needs a password (`serve --no-user-picker`).
    public var userPicker: Bool
    /// How many failed password sign-ins are allowed before the dialog answers 429 for a while.
    public var signInLimits: SignInLimits
    /// Timeouts for slow and idle clients, and the most connections open at once.
    public var connectionLimits: ConnectionLimits
    /// Serve HTTPS with a certificate from a local certificate authority kept in the store, for the
    /// provider's own address and the real service's host names (`serve --tls`); the issuer is then
    /// `https://www.facebook.com` unless `issuer` says otherwise.
    public var tls: Bool = false
    /// Make a store in an existing SQLite file that would otherwise be refused: an empty one, or a database
    /// without the provider's tables (`serve --init`).
    public var initializesStore: Bool = false
    /// Shut the server down gracefully on SIGTERM and SIGINT (the default). Off for `serve --exec`, which
    /// passes them to its command and stops when the command has ended (the server keeps answering the
    /// command's own clean-up meanwhile).
    public var stopsOnSignals: Bool = true
    /// The proxies whose `X-Forwarded-For` / `Forwarded` name the client for the per-address rules (failed
    /// sign-ins, wrong admin tokens): `serve --trusted-proxy`. None by default: the connection's address counts.
    public var trustedProxies = TrustedProxies.none
    /// How many test users one client address may add an hour on the sign-in page ("Add a test user").
    public var addedUsersPerHour = 20
    /// Serve `/metrics` to anyone (`serve --public-metrics`); by default it needs the admin token.
    public var publicMetrics = false
    /// The level of the line each answered request gets (`serve --request-log`): `.info` (the default)
    /// logs every request at the default level; `.debug` keeps them out of the log unless `--log-level
    /// debug`. Polled paths (`/health`, `/metrics`) are always at debug, failures always at error.
    public var requestLogLevel: Logger.Level = .info
    /// How long to wait before each retry of an app callback that failed (docs/BEHAVIOUR.md, section 4):
    /// five attempts in about six minutes by default; then the delivery is marked failed.
    public var callbackRetryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(60), .seconds(300)]
    /// How long one attempt of an app callback may take, from connecting to the whole answer.
    public var callbackAttemptTimeout: Duration = .seconds(10)
    /// Let app callbacks go to private, link-local, unspecified and any loopback address
    /// (the provider's callback address policy; `serve --allow-private-callbacks`).
    public var allowsPrivateCallbacks = false

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        store: StoreLocation = .sqliteFile(path: "limited-login.sqlite"),
        issuer: String? = nil,
        publicBaseURL: String? = nil,
        fixtures: ProviderFixtures? = nil,
        seedsDemoData: Bool = true,
        sessionLifetime: Int64 = 30 * 24 * 3600,
        maximumBodySize: Int = 64 * 1024,
        adminToken: String? = nil,
        lifetimes: TokenLifetimes = TokenLifetimes(),
        userPicker: Bool = true,
        signInLimits: SignInLimits = SignInLimits(),
        connectionLimits: ConnectionLimits = ConnectionLimits()
    ) {
        self.lifetimes = lifetimes
        self.adminToken = adminToken
        self.userPicker = userPicker
        self.signInLimits = signInLimits
        self.host = host
        self.port = port
        self.store = store
        self.issuer = issuer
        self.publicBaseURL = publicBaseURL
        self.fixtures = fixtures
        self.seedsDemoData = seedsDemoData
        self.sessionLifetime = sessionLifetime
        self.maximumBodySize = maximumBodySize
        self.connectionLimits = connectionLimits
    }
}
