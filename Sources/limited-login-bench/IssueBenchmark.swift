import AsyncHTTPClient
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginProvider
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// ID tokens issued per second through the real HTTP dialog, against bare RS256 signatures per second,
/// in one run; then JWKS requests per second.
///
/// The dialog load comes from `clients` threads, each with a keep-alive connection and a minimal blocking
/// HTTP client: the load generator shares the cores with the server, and a full client library would
/// spend on itself a good part of what is being measured.
///
/// The provider runs in this process on loopback, on an SQLite file, with a person signed in and a grant
/// that covers the scope, so each dialog request is answered at once with a redirect carrying a fresh
/// ID token: session, user, grant, app-scoped ID and friends lookups, the claims, the signature. The
/// clients are concurrent HTTP/1.1 connections. The baseline signs the same kind of claims with the same
/// key on as many threads as the server's event loops.
struct IssueBenchmark {
    var secondsPerRound: Double
    let rounds = 5
    var clients = 8
    /// Requests each client sends back to back before reading the answers (HTTP/1.1 pipelining).
    var pipelineDepth = 1
    let threads = System.coreCount

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var logger = Logger(label: "bench-provider")
        logger.logLevel = .error
        let fixtures = ProviderFixtures(
            apps: [.init(id: "1234567890", secret: "bench-secret", name: "Bench App", redirectURIs: ["https://bench.example/cb"], businessID: nil)],
            users: [
                .init(id: "100001", firstName: "Ada", middleName: nil, lastName: "Lovelace", email: "ada@example.test", password: "pw",
                      birthday: "12/10/1990", gender: "female", hometown: .init(id: "110", name: "London"),
                      location: .init(id: "111", name: "Paris"), link: "https://example.test/ada", friends: ["100002"]),
                .init(id: "100002", firstName: "Charles", middleName: nil, lastName: "Babbage", email: "charles@example.test", password: "pw",
                      birthday: nil, gender: nil, hometown: nil, location: nil, link: nil, friends: nil),
            ]
        )
        let provider = try await LimitedLoginProvider.prepare(
            ProviderConfiguration(port: 0, store: .sqliteFile(path: folder.appendingPathComponent("bench.sqlite").path),
                                  fixtures: fixtures, seedsDemoData: false),
            logger: logger
        )
        let scope: Set<Permission> = [.publicProfile, .email, .userFriends, .userBirthday, .userGender]
        for user in ["100001", "100002"] {
            try await provider.store.saveGrant(GrantRecord(
                appID: "1234567890", userID: user, granted: scope, declined: [], installed: true, updatedAt: 0
            ))
        }
        let session = try await provider.store.createSession(userID: "100001", lifetime: 3600)

        let (started, continuation) = AsyncStream<String>.makeStream()
        let server = Task {
            try await provider.application { baseURL in
                continuation.yield(baseURL)
                continuation.finish()
            }.runService(gracefulShutdownSignals: [])
        }
        var iterator = started.makeAsyncIterator()
        guard let baseURL = await iterator.next() else { throw BenchmarkError.serverDidNotStart }
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(redirectConfiguration: .disallow, connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients))
        )
        do {
            try await measure(baseURL: baseURL, session: session, http: http)
        } catch {
            try? await http.shutdown()
            server.cancel()
            throw error
        }
        try await http.shutdown()
        server.cancel()
        _ = await server.result
        await provider.store.close()
    }

    private func measure(baseURL: String, session: String, http: HTTPClient) async throws {
        let dialogURL = baseURL + "/v21.0/dialog/oauth?client_id=1234567890&redirect_uri=https%3A%2F%2Fbench.example%2Fcb"
            + "&response_type=id_token%2Cgraph_domain%2Cuser_token_nonce&scope=openid%2Cpublic_profile%2Cemail%2Cuser_friends%2Cuser_birthday%2Cuser_gender"
            + "&nonce=bench-nonce&state=s&tp=ios_14_do_not_track"
        // One request first: it must be answered with a token, and its claims give the baseline its payload.
        let sample = try await issue(dialogURL, session: session, http: http)
        let jws = try CompactJWS(parsing: sample)
        let key = try RS256PrivateKey.generate(bits: 2048)
        let signer = JWSSigner(privateKey: key, keyID: "bench-key")
        let claims = jws.payload
        guard let port = URL(string: baseURL)?.port else { throw BenchmarkError.serverDidNotStart }
        let target = String(dialogURL.dropFirst(baseURL.count))
        let dialogRequest = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: ll_session=\(session)\r\n\r\n".utf8)

        if CommandLine.arguments.contains("--dialog-only") {
            // The dialog load alone, for a profiler.
            let tokens = try await rawClients(seconds: 10, port: port, request: dialogRequest)
            print(String(format: "  dialog only: %.0f tokens/s", tokens))
            return
        }
        print("issue: \(clients) concurrent clients over loopback (pipelining depth \(pipelineDepth)), \(threads) signing threads for the baseline, \(rounds) rounds of \(secondsPerRound) s")
        var tokenRates: [Double] = [], bareRates: [Double] = [], ratios: [Double] = []
        for round in 1...rounds {
            let before = await bareSigning(seconds: secondsPerRound / 2, signer: signer, claims: claims)
            let tokens = try await rawClients(seconds: secondsPerRound, port: port, request: dialogRequest)
            let bare = (before + (await bareSigning(seconds: secondsPerRound / 2, signer: signer, claims: claims))) / 2
            tokenRates.append(tokens)
            bareRates.append(bare)
            ratios.append(tokens / bare)
            print(String(format: "  round %d: %.0f tokens/s, bare %.0f/s, ratio %.3f", round, tokens, bare, tokens / bare))
        }
        let jwks = try await concurrently(seconds: secondsPerRound) {
            let response = try await http.execute(HTTPClientRequest(url: baseURL + "/.well-known/oauth/openid/jwks/"), timeout: .seconds(30))
            guard response.status == .ok else { throw BenchmarkError.unexpectedResponse("JWKS answered \(response.status)") }
            _ = try await response.body.collect(upTo: 1 << 16)
        }
        print(String(format: "jwks: %.0f requests/s", jwks))
        print(String(format: "issue: %.0f/s through the dialog, %.0f/s bare signature, ratio %.3f", median(tokenRates), median(bareRates), median(ratios)))
    }

    /// One dialog request with the session cookie; returns the ID token from the redirect.
    private func issue(_ url: String, session: String, http: HTTPClient) async throws -> String {
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

    /// `clients` threads, each with its own keep-alive connection, sending `request` in a loop for
    /// `seconds`; tokens received per second. Every response must be a redirect carrying an ID token.
    private func rawClients(seconds: Double, port: Int, request: [UInt8]) async throws -> Double {
        let clients = self.clients, depth = self.pipelineDepth
        return try await withCheckedThrowingContinuation { continuation in
            let clock = ContinuousClock()
            let start = clock.now
            let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
            let total = Mutex(0)
            let failure = Mutex<String?>(nil)
            let finished = DispatchGroup()
            // Real threads, not concurrentPerform (which runs only as many at once as there are cores).
            for _ in 0..<clients {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    do {
                        let connection = try RawHTTPConnection(port: port)
                        var count = 0
                        while clock.now < deadline {
                            for response in try connection.exchange(request, depth: depth, headerName: "location") {
                                guard response.status == 302, response.header?.contains("#id_token=") == true else {
                                    failure.withLock { $0 = "the dialog answered \(response.status) without a token" }
                                    return
                                }
                                count += 1
                            }
                        }
                        total.withLock { $0 += count }
                    } catch {
                        failure.withLock { $0 = "a client failed: \(error)" }
                    }
                }.start()
            }
            finished.notify(queue: .global()) {
                if let message = failure.withLock({ $0 }) {
                    continuation.resume(throwing: BenchmarkError.unexpectedResponse(message))
                } else {
                    continuation.resume(returning: Double(total.withLock { $0 }) / (clock.now - start).seconds)
                }
            }
        }
    }

    /// `clients` tasks running `body` in a loop for `seconds`; completions per second.
    private func concurrently(seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var count = 0
                    while clock.now < deadline {
                        try await body()
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (clock.now - start).seconds
    }

    /// Signs `claims` (serialization, base64url and RSA) on `threads` threads for `seconds`; signatures per second.
    private func bareSigning(seconds: Double, signer: JWSSigner, claims: JSONObject) async -> Double {
        let threads = self.threads
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let clock = ContinuousClock()
                let start = clock.now
                let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
                let total = Mutex(0)
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    var count = 0
                    while clock.now < deadline {
                        _ = try? signer.sign(claims: claims)
                        count += 1
                    }
                    total.withLock { $0 += count }
                }
                continuation.resume(returning: Double(total.withLock { $0 }) / (clock.now - start).seconds)
            }
        }
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
