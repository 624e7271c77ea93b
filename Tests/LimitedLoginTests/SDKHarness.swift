import Foundation
import HummingbirdTesting
import LimitedLogin
import LimitedLoginCore
import LimitedLoginProvider
import LimitedLoginTestSupport
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A real provider on 127.0.0.1 with a SQLite file, as an app's tests would run one.
struct SDKProvider: Sendable {
    let baseURL: URL
    let provider: LimitedLoginProvider

    var endpoints: LoginEndpoints { .provider(baseURL) }

    /// A session saved in its own temporary file.
    func makeSession(notificationCenter: NotificationCenter = NotificationCenter()) -> (LoginSession, FileTokenStore) {
        let store = FileTokenStore(path: temporaryStatePath())
        return (LoginSession(store: store, notificationCenter: notificationCenter), store)
    }

    /// A manager for the test app whose person is scripted.
    func manager(
        _ person: ScriptedPerson, session: LoginSession, appID: String = TestFixtures.appID
    ) -> (LoginManager, ScriptedPresenter) {
        let presenter = ScriptedPresenter(person: person)
        return (LoginManager(appID: appID, endpoints: endpoints, presenter: presenter, session: session), presenter)
    }
}

/// Runs `body` with a provider on loopback, its store an SQLite file, or a PostgreSQL database.
func withSDKProvider<Value: Sendable>(
    _ dialect: StoreDialect = .sqlite, lifetimes: TokenLifetimes = TokenLifetimes(), _ body: @Sendable (SDKProvider) async throws -> Value
) async throws -> Value {
    var configuration = TestFixtures.configuration(store: try await dialect.freshLocation(), publicBaseURL: nil)
    configuration.lifetimes = lifetimes
    return try await withLiveProvider(configuration) { baseURL, _, provider in
        try await body(SDKProvider(baseURL: try #require(URL(string: baseURL)), provider: provider))
    }
}

/// A fresh path for a saved session, in a new folder.
func temporaryStatePath() -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("limited-login-sdk-\(UUID().uuidString)").appendingPathComponent("session.json").path
}

/// Alice signs in and consents.
let alice = ScriptedPerson(signIn: .testUser(id: TestFixtures.alice))

/// Every permission a limited login may ask for.
let allLimitedPermissions: Set<Permission> = [
    "public_profile", "email", "gaming_profile", "gaming_user_picture", "user_age_range", "user_birthday", "user_friends",
    "user_gender", "user_hometown", "user_link", "user_location", "user_messenger_contact",
]

/// A presenter that hands the callback of another presenter through a change, as an attacker between
/// the browser and the app could.
struct TamperingPresenter: AuthorizationPresenter {
    let inner: any AuthorizationPresenter
    let tamper: @Sendable (URL) -> URL

    func begin(appID: String) async throws(LoginError) -> any AuthorizationAttempt {
        TamperingAttempt(inner: try await inner.begin(appID: appID), tamper: tamper)
    }
}

struct TamperingAttempt: AuthorizationAttempt {
    let inner: any AuthorizationAttempt
    let tamper: @Sendable (URL) -> URL
    var redirectURI: String { inner.redirectURI }
    func present(_ url: URL) async throws(LoginError) -> URL { tamper(try await inner.present(url)) }
    func abandon() async { await inner.abandon() }
}

/// Replaces one fragment parameter of a callback URL.
func replacingParameter(_ name: String, in url: URL, with value: String) -> URL {
    let text = url.absoluteString
    guard let hash = text.firstIndex(of: "#"), var parameters = try? FormParameters(encoded: text[text.index(after: hash)...]) else { return url }
    var rebuilt = FormParameters()
    for pair in parameters.pairs { rebuilt.append(pair.name, pair.name == name ? value : pair.value) }
    parameters = rebuilt
    return URL(string: String(text[..<hash]) + "#" + parameters.encoded) ?? url
}

/// The value of one fragment parameter of a callback URL.
func parameter(_ name: String, in url: URL) -> String? {
    let text = url.absoluteString
    guard let hash = text.firstIndex(of: "#") else { return nil }
    return try? FormParameters(encoded: text[text.index(after: hash)...]).single(name)
}

/// A TCP listener on 127.0.0.1 that only counts the connections made to it: proof that nothing was sent.
final class ConnectionCounter: Sendable {
    let channel: any Channel
    private final class Counter: Sendable {
        private let value = Mutex(0)
        var current: Int { value.withLock { $0 } }
        func increment() { value.withLock { $0 += 1 } }
    }

    private let counter: Counter

    var connections: Int { counter.current }
    var url: URL { URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)") ?? URL(fileURLWithPath: "/") }

    init() async throws {
        let counter = Counter()
        self.counter = counter
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                counter.increment()
                return channel.close()
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func close() async { try? await channel.close() }
}

/// A value that tasks and callbacks record into, read by the test afterwards.
final class Recorder<Value: Sendable>: Sendable {
    private let box: Mutex<Value>
    init(_ initial: Value) { box = Mutex(initial) }
    var value: Value { box.withLock { $0 } }
    func set(_ value: Value) { box.withLock { $0 = value } }
    func update(_ change: (inout Value) -> Void) { box.withLock { change(&$0) } }
}
