import AsyncHTTPClient
import Foundation
import LimitedLoginCore
import LimitedLoginProvider
import Logging

/// A provider in this process for the benchmarks: on loopback, a free port, the bench app and two people
/// with grants that cover the scope, and a signed-in session, so that each dialog request is answered at
/// once with a redirect carrying a fresh ID token.
struct BenchProvider {
    let provider: LimitedLoginProvider
    let baseURL: String
    let session: String
    private let server: Task<Void, any Error>

    static let appID = "1234567890"
    /// The dialog request every benchmark sends (after the base URL).
    static let dialogTarget =
        "/v21.0/dialog/oauth?client_id=1234567890&redirect_uri=https%3A%2F%2Fbench.example%2Fcb"
        + "&response_type=id_token%2Cgraph_domain%2Cuser_token_nonce&scope=openid%2Cpublic_profile%2Cemail%2Cuser_friends%2Cuser_birthday%2Cuser_gender"
        + "&nonce=bench-nonce&state=s&tp=ios_14_do_not_track"

    /// Charles can be picked on the sign-in page (`memory --sign-in` signs in as him, with no password hash).
    static let fixtures: ProviderFixtures = {
        var charles = ProviderFixtures.User(
            id: "100002", firstName: "Charles", middleName: nil, lastName: "Babbage", email: "charles@example.test", password: "pw",
            birthday: nil, gender: nil, hometown: nil, location: nil, link: nil, friends: nil)
        charles.pickable = true
        return ProviderFixtures(
            apps: [.init(id: appID, secret: "bench-secret", name: "Bench App", redirectURIs: ["https://bench.example/cb"], businessID: nil)],
            users: [
                .init(
                    id: "100001", firstName: "Ada", middleName: nil, lastName: "Lovelace", email: "ada@example.test", password: "pw",
                    birthday: "12/10/1990", gender: "female", hometown: .init(id: "110", name: "London"),
                    location: .init(id: "111", name: "Paris"), link: "https://example.test/ada", friends: ["100002"]),
                charles,
            ]
        )
    }()

    /// Starts a provider on `store`. With `session`, it joins the signed-in session another node made
    /// (the store is shared) instead of making the grants and a session itself.
    /// `signInLimits` and `connectionLimits`: the limits (the sign-in and idle-memory benchmarks lift them).
    static func start(
        store: StoreLocation, session existing: String? = nil, signInLimits: SignInLimits = SignInLimits(),
        connectionLimits: ConnectionLimits = ConnectionLimits()
    ) async throws -> BenchProvider {
        var logger = Logger(label: "bench-provider")
        logger.logLevel = .critical
        var configuration = ProviderConfiguration(
            port: 0, store: store, issuer: "https://bench.example", fixtures: existing == nil ? fixtures : nil, seedsDemoData: false
        )
        configuration.signInLimits = signInLimits
        configuration.connectionLimits = connectionLimits
        let provider = try await LimitedLoginProvider.prepare(configuration, logger: logger)
        var session = existing ?? ""
        if existing == nil {
            let scope: Set<Permission> = [.publicProfile, .email, .userFriends, .userBirthday, .userGender]
            for user in ["100001", "100002"] {
                try await provider.store.saveGrant(
                    GrantRecord(appID: appID, userID: user, granted: scope, declined: [], installed: true, updatedAt: 0))
            }
            session = try await provider.store.createSession(userID: "100001", lifetime: 3600)
        }
        let (started, continuation) = AsyncStream<String>.makeStream()
        let server = Task {
            try await provider.application { baseURL in
                continuation.yield(baseURL)
                continuation.finish()
            }.runService(gracefulShutdownSignals: [])
        }
        var iterator = started.makeAsyncIterator()
        guard let baseURL = await iterator.next() else { throw BenchmarkError.serverDidNotStart }
        return BenchProvider(provider: provider, baseURL: baseURL, session: session, server: server)
    }

    var port: Int { URL(string: baseURL)?.port ?? 0 }

    /// Runs `body` with a provider on `store` and an HTTP client for it (`clients` connections, no
    /// redirects followed), then stops both, also when `body` throws. A file store goes in a temporary
    /// folder that is removed afterwards.
    static func withNode(
        fileStore: Bool, clients: Int = 8, signInLimits: SignInLimits = SignInLimits(), _ body: (BenchProvider, HTTPClient) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-bench-\(UUID().uuidString)")
        if fileStore { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { if fileStore { try? FileManager.default.removeItem(at: folder) } }
        let node = try await start(
            store: fileStore ? .sqliteFile(path: folder.appendingPathComponent("bench.sqlite").path) : .sqliteMemory, signInLimits: signInLimits
        )
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                redirectConfiguration: .disallow,
                connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients))
        )
        do {
            try await body(node, http)
        } catch {
            try? await http.shutdown()
            await node.stop()
            throw error
        }
        try await http.shutdown()
        await node.stop()
    }

    func stop() async {
        server.cancel()
        _ = await server.result
        await provider.store.close()
    }

    /// One dialog request with the session cookie; returns the ID token from the redirect.
    static func issue(_ url: String, session: String, http: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Cookie", value: "ll_session=\(session)")
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .found, let location = response.headers.first(name: "Location"),
            let range = location.range(of: "#id_token=")
        else { throw BenchmarkError.unexpectedResponse("the dialog answered \(response.status) without a token") }
        let rest = location[range.upperBound...]
        return String(rest.prefix { $0 != "&" })
    }
}
