import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

/// `limited-login verify --app-id A --app-id B`, run as a process, for a backend that serves several apps.
@Suite("limited-login verify with several app IDs")
struct VerifySeveralAppsTests {
    /// Tokens issued now, since the CLI uses the wall clock.
    let factory = TokenFactory(now: Date())
    static let game = "2222222222"

    func withServer(_ body: @Sendable (_ base: String) async throws -> Void) async throws {
        let server = KeySetServer(keySet: TestKeys.keySet([("key-1", TestKeys.primary)]))
        try await withLoopbackServer(server.router()) { port in try await body("http://127.0.0.1:\(port)") }
    }

    /// `verify` for the iOS app and the game against the loopback key set, plus `extra` arguments.
    func verify(_ token: String, base: String, _ extra: [String] = []) async throws -> CLIProcess.Result {
        try await CLIProcess.run(
            [
                "verify", token, "--app-id", factory.appID, "--app-id", Self.game, "--nonce", "nonce-7f3a",
                "--jwks-url", "\(base)/jwks", "--issuer", "https://issuer.test",
            ] + extra)
    }

    @Test("a token for either app: exit 0, the line and the JSON say which app")
    func eitherApp() async throws {
        let gameToken = factory.token { $0["aud"] = .string(Self.game) }
        try await withServer { base in
            let ios = try await verify(factory.token(), base: base)
            #expect(ios.status == 0, "\(ios.error)")
            #expect(ios.output.hasPrefix("valid: signed by key \"key-1\", issued by https://issuer.test for app 1234567890 to 1029384756"))
            let forGame = try await verify(gameToken, base: base)
            #expect(forGame.status == 0, "\(forGame.error)")
            #expect(forGame.output.hasPrefix("valid: signed by key \"key-1\", issued by https://issuer.test for app 2222222222 to 1029384756"))
            let json = try await verify(gameToken, base: base, ["--json"])
            #expect(json.status == 0, "\(json.error)")
            let object = try StrictJSONParser().parse(Array(json.output.utf8)).objectValue
            #expect(object?["app_id"] == "2222222222")
            #expect(object?["valid"] == true)
        }
    }

    @Test("a token for neither app: exit 1, the reason naming the token's app and the allowed ones")
    func neitherApp() async throws {
        let token = factory.token { $0["aud"] = "999" }
        try await withServer { base in
            let result = try await verify(token, base: base)
            #expect(result.status == 1)
            #expect(result.error == "invalid: the token is for app \"999\", not one of \"1234567890\", \"2222222222\"\n")
            #expect(result.output.isEmpty)
            let json = try await verify(token, base: base, ["--json"])
            #expect(json.status == 1)
            #expect(try StrictJSONParser().parse(Array(json.output.utf8)).objectValue?["error"] == "audience_not_allowed")
        }
    }

    @Test("one --app-id keeps the single-app reason; an empty one is a usage error (64)")
    func singleAndEmpty() async throws {
        let token = factory.token { $0["aud"] = "999" }
        try await withServer { base in
            let single = try await CLIProcess.run([
                "verify", token, "--app-id", factory.appID, "--nonce", "nonce-7f3a", "--jwks-url", "\(base)/jwks", "--issuer", "https://issuer.test",
            ])
            #expect(single.status == 1)
            #expect(single.error == "invalid: the token is for app \"999\", not \"1234567890\"\n")
        }
        let empty = try await CLIProcess.run(["verify", "t", "--app-id", factory.appID, "--app-id", "", "--nonce", "a"])
        #expect(empty.status == 64)
        #expect(empty.error.contains("--app-id: an app ID is empty"), "\(empty.error)")
    }
}
