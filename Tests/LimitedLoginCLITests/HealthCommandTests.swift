import Foundation
import Hummingbird
import LimitedLoginTestSupport
import Testing

/// Issue #29: `limited-login health`, the image's health check and a CI's readiness probe: exit 0 when a
/// provider answers /health with 200, one line and exit 1 otherwise (nothing there, a 503, a wrong port).
@Suite("CLI: health")
struct HealthCommandTests {
    /// `--timeout` for the checks that expect an answer: a liveness bound (the default 5 s ran out once on a
    /// loaded run, "no answer in time" from a loopback server answering 503).
    static let liveness = "300"

    @Test("a running provider is healthy (exit 0, one line; nothing with --quiet)")
    func healthy() async throws {
        let folder = try temporaryFolder("limited-login-health")
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:"], directory: folder)
        defer { Task { await server.stop() } }
        let result = try await CLIProcess.run(["health", "--provider", server.baseURL, "--timeout", Self.liveness])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "healthy: \(server.baseURL)/health answered 200\n")
        let quiet = try await CLIProcess.run(["health", "-q", "--timeout", Self.liveness], environment: ["LIMITED_LOGIN_PROVIDER": server.baseURL])
        #expect(quiet.status == 0 && quiet.output.isEmpty && quiet.error.isEmpty)
    }

    @Test("nothing listening: one line with what to do, exit 1; --wait keeps asking, then says how long it waited")
    func nothingThere() async throws {
        let result = try await CLIProcess.run(["health", "--provider", "127.0.0.1:1"])
        #expect(result.status == 1)
        #expect(
            result.error
                == "limited-login health: http://127.0.0.1:1/health: connection refused. Is it running? Start one with 'limited-login serve', or give its address with --provider.\n"
        )
        let waited = try await CLIProcess.run(["health", "--provider", "127.0.0.1:1", "--wait", "1"])
        #expect(waited.status == 1)
        #expect(waited.error.hasSuffix("--provider. (after waiting 1 s)\n"), "\(waited.error)")
    }

    @Test("a 503 (store or key unusable) and a server that is not a provider (404): exit 1 with the status")
    func unhealthy() async throws {
        let router = Router()
        router.get("/health") { _, _ in
            Response(
                status: .serviceUnavailable, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":"unavailable"}"#)))
        }
        try await withLoopbackServer(router) { port in
            let result = try await CLIProcess.run(["health", "--provider", "http://127.0.0.1:\(port)", "--timeout", Self.liveness])
            #expect(result.status == 1)
            #expect(
                result.error
                    == "limited-login health: http://127.0.0.1:\(port)/health: HTTP 503 (unavailable): the provider is up but its store or signing key is not usable; see its log\n"
            )
        }
        try await withLoopbackServer(Router()) { port in
            let result = try await CLIProcess.run(["health", "--provider", "http://127.0.0.1:\(port)", "--timeout", Self.liveness])
            #expect(result.status == 1)
            #expect(result.error == "limited-login health: http://127.0.0.1:\(port)/health: HTTP 404\n")
        }
        let bad = try await CLIProcess.run(["health", "--provider", "ftp://x"])
        #expect(bad.status == 64)
    }
}
