import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOHTTP1
import Testing

/// `Examples/ProfileServer`, an app's own server using `LimitedLoginHummingbird`, run as docs/VERIFIER.md says,
/// against `limited-login serve`, with a token the SDK got through the real dialog.
@Suite("Example server")
struct ExampleServerTests {
    /// The example server as docs/VERIFIER.md runs it, trusting `provider`; the server and its base URL.
    static func startExampleServer(trusting provider: ServerProcess) async throws -> (RunningCommand, String) {
        let server = try await RunningCommand(
            ["--app-id", LoginCommandTests.demoApp, "--provider", provider.baseURL, "--port", "0"],
            executable: "limited-login-example-server"
        )
        do {
            let base = try await server.waitFor("the example server's URL") { output, _ in
                output.split(separator: "\n").first { $0.hasPrefix("Example server running at ") }.map {
                    String($0.dropFirst("Example server running at ".count))
                }
            }
            return (server, base)
        } catch {
            server.stop()
            throw error
        }
    }

    @Test("accepts the SDK's ID token with its raw nonce and answers the profile; refuses a forged one, a missing one, and one without the raw nonce")
    func acceptsSDKTokenRejectsForgery() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let provider = try await ServerProcess.start(
            ["--port", "0", "--database", directory.appendingPathComponent("p.sqlite").path], directory: directory)
        defer { Task { await provider.stop() } }
        let providerURL = try #require(URL(string: provider.baseURL))

        let session = LoginSession(store: nil)
        let presenter = ScriptedPresenter(person: ScriptedPerson(signIn: .credentials(email: "alice@example.com", password: "password")))
        let manager = LoginManager(appID: LoginCommandTests.demoApp, endpoints: .provider(providerURL), presenter: presenter, session: session)
        // The Firebase convention the example checks: the login carries the SHA-256 hex of a raw nonce.
        let rawNonce = "raw-\(UUID().uuidString)"
        let configuration = try #require(LoginConfiguration(permissions: ["email"], tracking: .limited, nonce: NonceCheck.sha256Hex(rawNonce)))
        let result = try await manager.logIn(configuration: configuration)
        let token = try #require(result.authenticationToken?.tokenString)
        let userID = try #require(session.profile?.userID)

        let (server, base) = try await Self.startExampleServer(trusting: provider)
        defer { server.stop() }

        let accepted = try await HTTPExchange.send(
            base + "/me", headers: [("Authorization", "Bearer \(token)"), ("X-Limited-Login-Nonce", rawNonce)])
        #expect(accepted.status == 200, "\(accepted.body)")
        guard case .object(let me) = try StrictJSONParser().parse(Array(accepted.body.utf8)) else {
            Issue.record("not JSON")
            return
        }
        #expect(me["id"]?.stringValue == userID)
        #expect(me["name"]?.stringValue == "Alice Example")
        #expect(me["email"]?.stringValue == "alice@example.com")

        var segments = token.split(separator: ".").map(String.init)
        let payload = String(decoding: try Base64URL.decode(segments[1]), as: UTF8.self)
        segments[1] = Base64URL.encode(Array(payload.replacingOccurrences(of: userID, with: "1").utf8))
        let forged = try await HTTPExchange.send(
            base + "/me", headers: [("Authorization", "Bearer \(segments.joined(separator: "."))"), ("X-Limited-Login-Nonce", rawNonce)]
        )
        #expect(forged.status == 401)
        #expect(forged.header("WWW-Authenticate") == #"Bearer realm="limited-login", error="invalid_token""#)
        #expect(forged.body.contains(#""reason":"invalid_signature""#))

        let withoutNonce = try await HTTPExchange.send(base + "/me", headers: [("Authorization", "Bearer \(token)")])
        #expect(withoutNonce.status == 401)
        #expect(withoutNonce.header("WWW-Authenticate") == #"Bearer realm="limited-login", error="invalid_request""#)
        #expect(withoutNonce.body.contains("the X-Limited-Login-Nonce header is required: it carries the login's raw nonce"), "\(withoutNonce.body)")
        let wrongNonce = try await HTTPExchange.send(
            base + "/me", headers: [("Authorization", "Bearer \(token)"), ("X-Limited-Login-Nonce", "guessed")])
        #expect(wrongNonce.status == 401)
        #expect(wrongNonce.body.contains(#""reason":"nonce_mismatch""#), "\(wrongNonce.body)")

        let missing = try await HTTPExchange.send(base + "/me")
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == #"Bearer realm="limited-login""#)
    }

    @Test("docs/VERIFIER.md's commands as written: a token minted with --raw-nonce is accepted with the raw nonce in X-Limited-Login-Nonce")
    func readmeCommands() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let adminToken = "example-readme-admin-token"
        let provider = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--admin-token", adminToken], directory: directory)
        defer { Task { await provider.stop() } }
        let minted = try await CLIProcess.run(
            ["token", "--app-id", LoginCommandTests.demoApp, "--user", "alice@example.com", "--raw-nonce", "r-1"],
            environment: ["LIMITED_LOGIN_PROVIDER": provider.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken]
        )
        #expect(minted.status == 0, "\(minted.error)")
        let token = minted.output.trimmingCharacters(in: .whitespacesAndNewlines)

        let (server, base) = try await Self.startExampleServer(trusting: provider)
        defer { server.stop() }
        let accepted = try await HTTPExchange.send(base + "/me", headers: [("Authorization", "Bearer \(token)"), ("X-Limited-Login-Nonce", "r-1")])
        #expect(accepted.status == 200, "\(accepted.body)")
        let plain = try await CLIProcess.run(
            ["token", "--app-id", LoginCommandTests.demoApp, "--user", "alice@example.com", "--nonce", "r-1"],
            environment: ["LIMITED_LOGIN_PROVIDER": provider.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken]
        )
        let refused = try await HTTPExchange.send(
            base + "/me",
            headers: [("Authorization", "Bearer \(plain.output.trimmingCharacters(in: .whitespacesAndNewlines))"), ("X-Limited-Login-Nonce", "r-1")]
        )
        #expect(
            refused.status == 401 && refused.body.contains(#""reason":"nonce_mismatch""#),
            "the raw nonce itself in the token is what the old README minted")
    }
}
