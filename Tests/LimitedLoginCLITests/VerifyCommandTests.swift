import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

/// The CLI run as a process against a key-set server on loopback, as a backend engineer would use it.
@Suite("limited-login verify and decode")
struct VerifyCommandTests {
    /// Tokens issued now, since the CLI uses the wall clock.
    let factory = TokenFactory(now: Date())

    func withServer(_ body: @Sendable (_ base: String) async throws -> Void) async throws {
        let server = KeySetServer(keySet: TestKeys.keySet([("key-1", TestKeys.primary)]))
        try await withLoopbackServer(server.router()) { port in try await body("http://127.0.0.1:\(port)") }
    }

    @Test("a valid token: exit 0, the claims printed")
    func valid() async throws {
        let token = factory.token()
        try await withServer { base in
            let result = try await CLIProcess.run([
                "verify", token, "--app-id", "1234567890", "--nonce", "nonce-7f3a",
                "--jwks-url", "\(base)/jwks", "--issuer", "https://issuer.test",
            ])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.hasPrefix("valid: signed by key \"key-1\", issued by https://issuer.test for app 1234567890 to 1029384756"))
            #expect(result.output.contains(#""email": "ada@example.test""#))
        }
    }

    @Test("--jwks-url keeps the real service's issuers unless --issuer is given")
    func jwksKeepsIssuers() async throws {
        let token = factory.token()
        try await withServer { base in
            let result = try await CLIProcess.run(["verify", token, "--app-id", "1234567890", "--nonce", "nonce-7f3a", "--jwks-url", "\(base)/jwks"])
            #expect(result.status == 1)
            #expect(result.error == "invalid: issuer \"https://issuer.test\" is not one of the allowed issuers\n")
        }
    }

    @Test("--discovery-url takes issuer and keys from the provider; the token comes on standard input")
    func discoveryAndStdin() async throws {
        let token = factory.token()
        try await withServer { base in
            let result = try await CLIProcess.run(
                [
                    "verify", "--app-id", "1234567890", "--raw-nonce", "ignored", "--discovery-url", "\(base)/.well-known/openid-configuration",
                    "--json",
                ],
                input: token + "\n"
            )
            #expect(result.status == 1)
            let json = try StrictJSONParser().parse(Array(result.output.utf8)).objectValue
            #expect(json?["valid"] == false)
            #expect(json?["error"] == "nonce_mismatch")
            let passing = try await CLIProcess.run(
                ["verify", "-", "--app-id", "1234567890", "--no-nonce", "--discovery-url", "\(base)/.well-known/openid-configuration", "--json"],
                input: token
            )
            #expect(passing.status == 0, "\(passing.error)")
            let claims = try StrictJSONParser().parse(Array(passing.output.utf8)).objectValue?["claims"]?.objectValue
            #expect(claims?["sub"] == "1029384756")
        }
    }

    @Test("a tampered token: exit 1 and the precise reason on one line")
    func tampered() async throws {
        var claims = factory.claims
        claims["sub"] = "someone-else"
        let parts = factory.token().split(separator: ".")
        let forged = "\(parts[0]).\(Base64URL.encode(JSONSerializer.serialize(.object(claims)))).\(parts[2])"
        try await withServer { base in
            let result = try await CLIProcess.run([
                "verify", forged, "--app-id", "1234567890", "--nonce", "nonce-7f3a", "--jwks-url", "\(base)/jwks", "--issuer", "https://issuer.test",
            ])
            #expect(result.status == 1)
            #expect(result.error == "invalid: the signature does not match the token (tampered, or signed by another key)\n")
            #expect(result.output.isEmpty)
        }
    }

    @Test("garbage: exit 1 and one clear line, no stack trace", arguments: ["garbage", "a.b", "...", "\u{0}\u{1}", "eyJ.eyJ.x"])
    func garbage(input: String) async throws {
        let result = try await CLIProcess.run([
            "verify", input, "--app-id", "1", "--nonce", "n", "--jwks-url", "http://127.0.0.1:9/jwks", "--issuer", "x",
        ])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("invalid: "))
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test("an unreachable key set: exit 3 (not checked, which is not a rejection) saying the key set could not be fetched")
    func unreachable() async throws {
        let token = factory.token()
        let result = try await CLIProcess.run([
            "verify", token, "--app-id", "1234567890", "--nonce", "nonce-7f3a", "--jwks-url", "http://127.0.0.1:9/jwks", "--issuer",
            "https://issuer.test",
        ])
        #expect(result.status == 3)
        #expect(
            result.error
                == "error: cannot check the token: the key set could not be fetched: http://127.0.0.1:9/jwks: the request failed: connection refused\n"
        )
    }

    @Test("usage errors: no nonce choice, two nonce choices, both key-set options, no token")
    func usage() async throws {
        let none = try await CLIProcess.run(["verify", "t", "--app-id", "1"])
        #expect(none.status == 64)
        #expect(none.error.contains("choose exactly one of --nonce, --raw-nonce or --no-nonce"))
        let two = try await CLIProcess.run(["verify", "t", "--app-id", "1", "--nonce", "a", "--no-nonce"])
        #expect(two.error.contains("choose exactly one of --nonce, --raw-nonce or --no-nonce"))
        let both = try await CLIProcess.run([
            "verify", "t", "--app-id", "1", "--nonce", "a", "--jwks-url", "http://127.0.0.1/a", "--discovery-url", "http://127.0.0.1/b",
        ])
        #expect(both.error.contains("give --jwks-url or --discovery-url, not both"))
        let nan = try await CLIProcess.run(["verify", "t", "--app-id", "1", "--nonce", "a", "--leeway", "nan"])
        #expect(nan.status == 64)
        #expect(nan.error.contains("--leeway must be a number of seconds >= 0"))
        let infinite = try await CLIProcess.run(["verify", "t", "--app-id", "1", "--nonce", "a", "--max-age", "inf"])
        #expect(infinite.error.contains("--max-age must be a number of seconds > 0"))
        let empty = try await CLIProcess.run(["verify", "--app-id", "1", "--nonce", "a"], input: "")
        #expect(empty.status == 2)
        #expect(empty.error == "error: no token given: pass it as an argument, or pipe it on standard input\n")
    }

    @Test("decode prints header and claims, loudly unverified")
    func decode() async throws {
        let result = try await CLIProcess.run(["decode"], input: factory.token())
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("UNVERIFIED: the signature has not been checked; do not trust these claims."))
        #expect(result.output.contains(#""kid": "key-1""#))
        #expect(result.output.contains(#""nonce": "nonce-7f3a""#))
        let json = try await CLIProcess.run(["decode", factory.token(), "--json"])
        #expect(try StrictJSONParser().parse(Array(json.output.utf8)).objectValue?["verified"] == false)
        let bad = try await CLIProcess.run(["decode", "not-a-token"])
        #expect(bad.status == 1)
        #expect(bad.error == "error: cannot decode: a compact JWS has exactly 3 segments separated by '.', this has 1\n")
    }

    @Test("--help explains every option")
    func help() async throws {
        let result = try await CLIProcess.run(["verify", "--help"])
        for option in ["--app-id", "--nonce", "--raw-nonce", "--no-nonce", "--jwks-url", "--discovery-url", "--issuer", "--json"] {
            #expect(result.output.contains(option))
        }
    }
}
