import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginProvider
import Logging

/// The apps and people every provider test starts with.
public enum TestFixtures {
    public static let appID = "1111111111"
    public static let otherAppID = "2222222222"
    public static let appSecret = "0123456789abcdef0123456789abcdef"
    public static let registeredRedirect = "https://app.example/callback"
    public static let alice = "100001"
    public static let bob = "100002"
    public static let carol = "100003"

    public static let fixtures = ProviderFixtures(
        apps: [
            .init(id: appID, secret: appSecret, name: "Test App", redirectURIs: [registeredRedirect], businessID: "77"),
            .init(id: otherAppID, secret: nil, name: "Other App", redirectURIs: nil, businessID: nil),
        ],
        users: [
            .init(
                id: alice, firstName: "Alice", middleName: "Q", lastName: "Smith", email: "alice@example.com",
                password: "alice-pass", birthday: "04/22/1990", gender: "female", hometown: .init(id: "501", name: "Paris"),
                location: .init(id: "502", name: "Lyon"), link: "https://example.com/alice", friends: [bob, carol],
                pickable: true
            ),
            .init(
                id: bob, firstName: "Bob", middleName: nil, lastName: "Jones", email: "bob@example.com",
                password: "bob-pass", birthday: "01/15/2007", gender: "male", hometown: nil, location: nil, link: nil,
                friends: [carol], pickable: true
            ),
            .init(
                id: carol, firstName: "Carol", middleName: nil, lastName: "White", email: "carol@example.com",
                password: "carol-pass", birthday: nil, gender: nil, hometown: nil, location: nil, link: nil, friends: nil,
                pickable: true
            ),
        ]
    )

    public static let baseURL = "http://provider.test"

    public static func configuration(store: StoreLocation = .sqliteMemory, port: Int = 0, publicBaseURL: String? = baseURL) -> ProviderConfiguration {
        ProviderConfiguration(
            host: "127.0.0.1", port: port, store: store, publicBaseURL: publicBaseURL, fixtures: fixtures, seedsDemoData: false
        )
    }

    public static let quietLogger = Logger(label: "provider-test", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// Runs a provider on 127.0.0.1 on a free port (HummingbirdTesting's live mode: a real server and a
/// real HTTP client) for the length of `body`, then stops it and closes its store.
public func withLiveProvider<Value: Sendable>(
    _ configuration: ProviderConfiguration,
    _ body: @Sendable (_ baseURL: String, _ client: any TestClientProtocol, _ provider: LimitedLoginProvider) async throws -> Value
) async throws -> Value {
    let provider = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
    do {
        let value = try await provider.application().test(.live) { client in
            try await body(provider.urls.baseURL, client, provider)
        }
        await provider.store.close()
        return value
    } catch {
        await provider.store.close()
        throw error
    }
}

/// A fresh SQLite file path in a temporary folder.
public func temporaryDatabasePath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("provider.sqlite").path
}
