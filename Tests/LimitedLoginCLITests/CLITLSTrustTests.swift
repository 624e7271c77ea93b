import Foundation
import Testing

/// Issue #30 item 3: under `serve --tls` the CLI trusts the provider's own CA where it should: `--ca-file` and
/// `LIMITED_LOGIN_CA_FILE` on every command that talks to a provider or a key set, set by `serve --tls --exec`;
/// a certificate failure is one line saying what to do, without the TLS library's internals or a build path.
@Suite("CLI: trusting the provider's CA under --tls")
struct CLITLSTrustTests {
    private static let adminToken = "tls-trust-admin-token"

    @Test("verify and login fail in one line without the CA, and work with --ca-file or LIMITED_LOGIN_CA_FILE")
    func caFile() async throws {
        let folder = try temporaryFolder("limited-login-tls")
        let ca = folder.appendingPathComponent("ca.pem").path
        let server = try await ServerProcess.start(
            ["--tls", "--port", "0", "--database", ":memory:", "--admin-token", Self.adminToken, "--ca-file", ca], directory: folder
        )
        defer { Task { await server.stop() } }
        let admin = ["LIMITED_LOGIN_PROVIDER": server.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": Self.adminToken]
        let written = try String(contentsOfFile: ca, encoding: .utf8)
        let exported = try await CLIProcess.run(["ca", "export"], environment: admin)
        #expect(written.hasSuffix("-----END CERTIFICATE-----\n"), "a bundle it is appended to stays valid")
        #expect(exported.status == 0 && written == exported.output, "the same file as 'ca export' writes")
        // Issue #56: with the key, --output writes a file only its owner can read, from its first byte.
        let keyFile = folder.appendingPathComponent("ca-key.pem").path
        let withKey = try await CLIProcess.run(["ca", "export", "--include-key", "--output", keyFile], environment: admin)
        #expect(withKey.status == 0 && withKey.output.isEmpty, "\(withKey.error)")
        let keyText = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(keyText.hasPrefix(written) && keyText.contains("PRIVATE KEY-----"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")
        let intoFolder = try await CLIProcess.run(["ca", "export", "--include-key", "--output", folder.path], environment: admin)
        #expect(
            intoFolder.status == 64 && intoFolder.error.contains("--output \(folder.path) is a folder; give a file's path"), "\(intoFolder.error)")
        let minted = try await CLIProcess.run(
            ["token", "--app-id", "1000000000000001", "--user", "alice@example.com", "--nonce", "n-1", "--ca-file", ca], environment: admin)
        #expect(minted.status == 0, "\(minted.error)")
        let token = minted.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let discovery = server.baseURL + "/.well-known/openid-configuration"
        let verifyArguments = ["verify", token, "--app-id", "1000000000000001", "--nonce", "n-1", "--discovery-url", discovery]

        let untrusted = try await CLIProcess.run(verifyArguments)
        #expect(untrusted.status == 3)
        #expect(
            untrusted.error
                == "error: cannot check the token: the discovery document at \(discovery) could not be read: the request failed: the server's certificate is not signed by an authority trusted here (a provider started with --tls has its own: give --ca-file FILE or set LIMITED_LOGIN_CA_FILE; 'limited-login ca export > ca.pem' writes it)\n"
        )
        #expect(!untrusted.error.contains("BoringSSL") && !untrusted.error.contains(".build/"))
        #expect(try await CLIProcess.run(verifyArguments + ["--ca-file", ca]).status == 0)
        #expect(try await CLIProcess.run(verifyArguments, environment: ["LIMITED_LOGIN_CA_FILE": ca]).status == 0)

        let loginArguments = [
            "login", "--app-id", "1000000000000001", "--provider", server.baseURL, "--as", "alice@example.com",
            "--state-file", folder.appendingPathComponent("session.json").path,
        ]
        let refused = try await CLIProcess.run(loginArguments)
        #expect(refused.status == 1)
        #expect(
            refused.error.hasSuffix(
                "the server's certificate is not signed by an authority trusted here (a provider started with --tls has its own: give --ca-file FILE or set LIMITED_LOGIN_CA_FILE; 'limited-login ca export > ca.pem' writes it)\n"
            ), "\(refused.error)")
        let loggedIn = try await CLIProcess.run(loginArguments, environment: ["LIMITED_LOGIN_CA_FILE": ca])
        #expect(loggedIn.status == 0, "\(loggedIn.error)")

        let notPEM = try await CLIProcess.run(verifyArguments + ["--ca-file", "/etc/hostname"])
        #expect(notPEM.status == 64)
        #expect(
            notPEM.error == "error: --ca-file /etc/hostname holds no PEM certificate ('limited-login ca export > ca.pem' writes the provider's)\n")
    }

    @Test("inside serve --tls --exec, verify and login trust the provider without any option")
    func insideExec() async throws {
        let script = """
            set -e
            TOKEN=$(limited-login token --app-id "$LIMITED_LOGIN_APP_ID" --user alice@example.com --nonce n-1)
            echo "$TOKEN" | limited-login verify --app-id "$LIMITED_LOGIN_APP_ID" --nonce n-1 --discovery-url "$LIMITED_LOGIN_DISCOVERY_URL" > /dev/null
            limited-login login --app-id "$LIMITED_LOGIN_APP_ID" --provider "$LIMITED_LOGIN_URL" --as bob@example.com --state-file "$(mktemp -d)/s.json" > /dev/null
            echo trusted
            """
        let result = try await CLIProcess.run(["serve", "--tls", "--port", "0", "--database", ":memory:", "--exec", script])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "trusted\n")
    }
}
