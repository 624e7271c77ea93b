import Foundation
import Hummingbird
import LimitedLoginTestSupport
import Logging
import Synchronization
import Testing

@testable import LimitedLoginProvider

#if canImport(Glibc)
import Glibc
#endif

/// A server started while the provider is prepared (`serve`, docs/PERFORMANCE.md, "Start"): requests that
/// come first wait for the provider, a failed start leaves nothing listening, and only the server's own
/// warm-up request is answered before the provider is ready.
struct EarlyServerTests {
    @Test("a provider that starts its server while it is prepared serves once ready, at the port it bound")
    func servesOnceReady() async throws {
        var configuration = TestFixtures.configuration(store: .sqliteFile(path: temporaryDatabasePath()), publicBaseURL: nil)
        configuration.startsServerWhilePreparing = true
        let provider = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        let announced = Announced()
        try await provider.run(
            onRunning: { baseURL in announced.set(baseURL) },
            until: {
                let baseURL = announced.get()
                let port = try? #require(URLComponents(string: baseURL)?.port)
                #expect(baseURL == provider.urls.baseURL && port != nil && port != 0, "\(baseURL)")
                guard let port else { return }
                let health = try? await LoopbackSocket(port: port).exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", within: .seconds(60))
                #expect(health?.hasPrefix("HTTP/1.1 200 OK") == true, "\(health ?? "no answer")")
                let discovery = try? await LoopbackSocket(port: port).exchange(
                    "GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", within: .seconds(60))
                #expect(discovery?.contains("\"issuer\":\"\(baseURL)\"") == true, "\(discovery ?? "no answer")")
            })
    }

    @Test("a request that arrives before the provider is ready waits and is answered by its router")
    func earlyRequestWaits() async throws {
        let (early, port, socket) = try await Self.waitingRequest()
        #expect(socket.received.isEmpty, "answered before the provider was ready")
        let router = Router()
        router.get("/hello") { _, _ in "ready" }
        await early.provide(router.buildResponder())
        let answer = try await socket.response(within: .seconds(60))
        #expect(answer.hasPrefix("HTTP/1.1 200 OK") && answer.hasSuffix("ready"), "\(answer)")
        await early.group.triggerGracefulShutdown()
        try await early.run()
    }

    @Test("a failed start answers the waiting requests 503 and leaves nothing listening on its port")
    func failedStartStops() async throws {
        let (early, port, socket) = try await Self.waitingRequest()
        await early.stop()
        let answer = try await socket.response(within: .seconds(60))
        #expect(answer.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(answer)")
        #expect(answer.contains("The provider could not start."), "\(answer)")
        Self.expectNothingListens(on: port)
    }

    @Test("a provider whose store cannot be opened stops the server it started")
    func storeFailureStopsServer() async throws {
        let port = try #require(freeLoopbackPort())
        var configuration = TestFixtures.configuration(
            store: .sqliteFile(path: "/nonexistent-\(UUID().uuidString)/provider.sqlite"), port: port, publicBaseURL: nil)
        configuration.startsServerWhilePreparing = true
        await #expect(throws: StoreError.self) {
            _ = try await LimitedLoginProvider.prepare(configuration, logger: TestFixtures.quietLogger)
        }
        Self.expectNothingListens(on: port)
    }

    @Test("before the provider is ready, only requests with this process's warm-up token are answered (204), however late")
    func warmUpToken() async throws {
        let responder = DeferredResponder()
        let router = Router()
        router.get("/") { _, _ in "the router" }
        let routed = router.buildResponder()
        let field = DeferredResponder.warmUpField.rawName
        let urls = ProviderURLs(baseURL: "http://127.0.0.1:0", issuer: nil)
        let application = LimitedLoginProvider.application(
            responder: responder, configuration: TestFixtures.configuration(publicBaseURL: nil), urls: urls,
            tls: nil, logger: TestFixtures.quietLogger
        ) { _ in }
        try await application.test(.live) { client in
            let port = try #require(client.port)
            func request(token: String) -> String { "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(field): \(token)\r\n\r\n" }
            let guessed = try LoopbackSocket(port: port)
            try guessed.send(request(token: "a-guess"))
            try await Self.waitUntil { responder.waitingCount == 1 }
            let warmUp = try await LoopbackSocket(port: port).exchange(request(token: responder.warmUpToken), within: .seconds(60))
            #expect(warmUp.hasPrefix("HTTP/1.1 204 No Content"), "\(warmUp)")
            // The sender may have given up on its warm-up before the request was read (a second, on a busy
            // machine): a request with the token that comes later is still the warm-up's, and does not wait.
            // Not thrown if unanswered: the router below must still be given, or the server would wait for it at
            // its shutdown.
            let late = try? await LoopbackSocket(port: port).exchange(request(token: responder.warmUpToken), within: .seconds(20))
            #expect(late?.hasPrefix("HTTP/1.1 204 No Content") == true, "\(late ?? "no answer: it waits for the provider")")
            #expect(responder.waitingCount == 1 && guessed.received.isEmpty, "the guessed token still waits")
            responder.provide(routed)
            let answered = try await guessed.response(within: .seconds(60))
            #expect(answered.hasPrefix("HTTP/1.1 200 OK") && answered.hasSuffix("the router"), "\(answered)")
            // Once the provider is ready, the token is just another header.
            let later = try await LoopbackSocket(port: port).exchange(request(token: responder.warmUpToken), within: .seconds(60))
            #expect(later.hasPrefix("HTTP/1.1 200 OK") && later.hasSuffix("the router"), "\(later)")
        }
    }

    /// An early server with one request (`GET /hello`) waiting for the provider: the server, its port and
    /// the request's connection.
    private static func waitingRequest() async throws -> (EarlyServer, Int, LoopbackSocket) {
        let (early, port) = try await startEarlyServer()
        let socket = try LoopbackSocket(port: port)
        try socket.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // This request alone: the server's own warm-up request never waits, even when it comes late.
        try await waitUntil { await early.waitingCount >= 1 }
        let waiting = await early.waitingCount
        #expect(waiting == 1, "\(waiting) requests wait for the provider")
        return (early, port, socket)
    }

    /// Expects a connection to `port` to be refused.
    private static func expectNothingListens(on port: Int) {
        #expect {
            _ = try LoopbackSocket(port: port)
        } throws: { error in
            guard case LoopbackSocket.Failure.connect(let code) = error else { return false }
            return code == ECONNREFUSED
        }
    }

    /// An early server on a free port, bound; the port.
    private static func startEarlyServer() async throws -> (EarlyServer, Int) {
        let urls = ProviderURLs(baseURL: "http://127.0.0.1:0", issuer: nil)
        let early = EarlyServer(configuration: TestFixtures.configuration(publicBaseURL: nil), urls: urls, logger: TestFixtures.quietLogger)
        #expect(await early.waitUntilBound())
        let port = try #require(URLComponents(string: urls.baseURL)?.port)
        return (early, port)
    }

    /// Waits (at most a minute, polling) until `condition` holds.
    private static func waitUntil(_ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not hold within a minute")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// The base URL a run announced.
private final class Announced: Sendable {
    private let value = Mutex<String>("")
    func set(_ baseURL: String) { value.withLock { $0 = baseURL } }
    func get() -> String { value.withLock { $0 } }
}
