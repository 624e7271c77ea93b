import Crypto
import Logging

/// What every route of a running provider shares.
final class ProviderServices: Sendable {
    let configuration: ProviderConfiguration
    let store: ProviderStore
    let keyring: SigningKeyring
    let urls: ProviderURLs
    let pages: PageRenderer
    let csrf: CSRFProtection
    /// The `user_token_nonce` of dialog answers.
    let userTokenNonce: UserTokenNonce
    let logger: Logger
    let metrics: ProviderMetrics
    let clock: ProviderClock
    let scenarios: ScenarioQueue
    /// Faults injected on the key endpoints and the Graph API of this node.
    let faults = EndpointFaults()
    /// The last logins completed here, for the console and `GET /_admin/logins`.
    let recentLogins = RecentLogins()
    /// The password checks in flight on this node, which hold places under the sign-in limits.
    let signInGate = SignInCheckGate()
    /// The last `/health` verdict of this node, reused for a second.
    let recentHealth = RecentHealthCheck()
    /// Wrong admin tokens per client address (the admin API's and the console's sign-in).
    let adminTokenAttempts: AdminTokenAttempts
    /// Store outages in the log, and the last write refused for want of space (for `/health`).
    let storeOutages: StoreOutageLog
    /// Test users added on the sign-in page per client address.
    let addedUsers: AddedUserLimit
    /// The certificate and authority of `serve --tls`; nil when serving plain HTTP.
    let tls: ServerTLS?
    /// Keeps the clock the cluster's when the store is shared.
    let clusterClock: ClusterClock
    /// Posts the apps' deauthorize and data-deletion callbacks.
    let callbacks: CallbackDeliverer
    /// The record of every admin write, in the store.
    let adminLog: AdminWriteLog

    init(
        configuration: ProviderConfiguration, store: ProviderStore, keyring: SigningKeyring, urls: ProviderURLs,
        pages: PageRenderer, csrf: CSRFProtection, userTokenNonce: UserTokenNonce, logger: Logger, metrics: ProviderMetrics = ProviderMetrics(),
        clock: ProviderClock = ProviderClock(), scenarios: ScenarioQueue = ScenarioQueue(), tls: ServerTLS? = nil
    ) {
        self.tls = tls
        callbacks = CallbackDeliverer(
            store: store, logger: logger, retryDelays: configuration.callbackRetryDelays, attemptTimeout: configuration.callbackAttemptTimeout,
            allowsPrivateAddresses: configuration.allowsPrivateCallbacks)
        clusterClock = ClusterClock(store: store, clock: clock, keyring: keyring)
        adminTokenAttempts = AdminTokenAttempts(
            limits: configuration.adminTokenAttemptLimits, store: store.location.isShared ? store : nil)
        addedUsers = AddedUserLimit(limit: configuration.addedUsersPerHour)
        storeOutages = StoreOutageLog(logger: logger)
        adminLog = AdminWriteLog(store: store, logger: logger)
        self.clock = clock
        self.scenarios = scenarios
        self.configuration = configuration
        self.store = store
        self.keyring = keyring
        self.urls = urls
        self.pages = pages
        self.csrf = csrf
        self.userTokenNonce = userTokenNonce
        self.logger = logger
        self.metrics = metrics
    }
}
