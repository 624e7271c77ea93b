import ArgumentParser
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify an ID token: signature, issuer, audience, times and nonce.",
        discussion: """
            Exits 0 and prints the claims when the token is valid; exits 1 with the precise reason when it is
            rejected; 2 when no token was given; 3 when it could not be checked (the discovery document or key set
            could not be fetched); 64 for bad options.
            With no key-set option the token is checked against the real service (limited.facebook.com).
            """
    )

    @Argument(help: "The ID token. Leave out, or use '-', to read it from standard input.")
    var token: String?

    @Option(name: .customLong("app-id"), help: "An app ID the token may be for (its 'aud'); repeat for a backend of several apps.")
    var appIDs: [String]

    @Option(help: "The nonce the token must carry, exactly.")
    var nonce: String?

    @Option(name: .customLong("raw-nonce"), help: "A raw nonce whose SHA-256 hex the token must carry (Firebase style).")
    var rawNonce: String?

    @Flag(name: .customLong("no-nonce"), help: "Do not check the nonce (for tokens an SDK refreshed with its own).")
    var noNonce = false

    @Option(
        name: .customLong("jwks-url"),
        help: "Take keys from this key set instead of the real service's; issuers stay the real service's unless --issuer is given.")
    var jwksURL: String?

    @Option(name: .customLong("discovery-url"), help: "Take the issuer and key set from this provider's OpenID discovery document.")
    var discoveryURL: String?

    @Option(name: .customLong("issuer"), help: "An accepted issuer, exactly (repeat for several). Replaces the default issuers.")
    var issuers: [String] = []

    @Option(help: "Allowed clock skew in seconds.")
    var leeway: Double = 60

    @Option(name: .customLong("max-age"), help: "The oldest 'iat' accepted, in seconds.")
    var maxAge: Double = 3600

    @Option(
        help: ArgumentHelp(
            "Check the token's times as at this time instead of now: seconds since 1970, an ISO 8601 time (2030-01-01T00:00:00Z), or 'provider' for the provider's own clock, which tests move (read from its admin API: --provider, $LIMITED_LOGIN_PROVIDER or the --discovery-url's origin, with --admin-token or $LIMITED_LOGIN_ADMIN_TOKEN).",
            valueName: "time|provider"))
    var at: String?

    @Option(help: "With --at provider: the provider's base URL (default: $LIMITED_LOGIN_PROVIDER, else the --discovery-url's origin).")
    var provider: String?

    @Option(name: .customLong("admin-token"), help: "With --at provider: the provider's admin token (default: $LIMITED_LOGIN_ADMIN_TOKEN).")
    var adminToken: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    @OptionGroup var trust: CAFileOption

    /// The time `--at` names, or nil for now.
    func verificationTime() async throws -> Date? {
        guard let at else { return nil }
        if at == "provider" {
            var connection = AdminConnection()
            connection.adminToken = adminToken
            connection.trust = trust
            connection.provider =
                provider ?? ClientEnvironment.provider
                ?? discoveryURL.flatMap { text -> String? in
                    guard let url = URL(string: text), let scheme = url.scheme, let host = url.host else { return nil }
                    return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)" + (url.port.map { ":\($0)" } ?? "")
                }
            let answer = try await AdminRequest.send(connection, path: "/_admin/clock", method: .GET)
            guard let now = answer.objectValue?["now"]?.integerValue else {
                throw CommandFailure.fail("error: the provider's clock answer has no \"now\"", code: Self.notChecked)
            }
            return Date(timeIntervalSince1970: TimeInterval(now))
        }
        if let epoch = TimeArgument.epoch(at) { return Date(timeIntervalSince1970: TimeInterval(epoch)) }
        throw CommandFailure.fail(
            "limited-login verify: --at must be seconds since 1970, an ISO 8601 time such as 2030-01-01T00:00:00Z, or provider; got \"\(at)\"",
            code: 64)
    }

    func validate() throws {
        let nonceOptions = [nonce != nil, rawNonce != nil, noNonce].filter { $0 }.count
        if nonceOptions != 1 {
            throw ValidationError("choose exactly one of --nonce, --raw-nonce or --no-nonce")
        }
        if jwksURL != nil, discoveryURL != nil {
            throw ValidationError("give --jwks-url or --discovery-url, not both")
        }
        for (name, value) in [("--jwks-url", jwksURL), ("--discovery-url", discoveryURL)] {
            if let value, URL(string: value)?.host == nil {
                throw ValidationError("\(name) must be an absolute URL, got \"\(value)\"")
            }
            if let value, let url = URL(string: value), !url.hasUsablePort {
                throw ValidationError("\(name): the port of \"\(value)\" is not 1 to 65535")
            }
        }
        do { _ = try VerifierConfiguration(appIDs: appIDs, allowedIssuers: []) } catch {
            throw ValidationError("--app-id: \(error.description)")
        }
        if !leeway.isFinite || leeway < 0 { throw ValidationError("--leeway must be a number of seconds >= 0") }
        if !maxAge.isFinite || maxAge <= 0 { throw ValidationError("--max-age must be a number of seconds > 0") }
    }

    func run() async throws {
        if let problem = trust.apply() { throw CommandFailure.fail(problem, code: 64) }
        let tokenText: String
        do { tokenText = try TokenInput.read(token) } catch { throw CommandFailure.fail("error: \(error)", code: 2) }
        let nonceCheck: NonceCheck
        if let nonce {
            nonceCheck = .exact(nonce)
        } else if let rawNonce {
            nonceCheck = .sha256OfRawNonce(rawNonce)
        } else {
            nonceCheck = .notChecked
        }

        // The first app ID builds the verifier as before; all of them are set on its configuration below.
        let appID = appIDs[0]
        var verifier: TokenVerifier
        if let discoveryURL, let url = URL(string: discoveryURL) {
            do {
                verifier = try await TokenVerifier.provider(discoveryURL: url, appID: appID)
            } catch {
                let message = "the discovery document at \(discoveryURL) could not be read: \(error)"
                if json {
                    // As a key set that cannot be fetched: the token was not checked, and the JSON says so.
                    let output: JSONValue = [
                        "valid": false, "checked": false, "error": "discovery_unavailable", "message": .string(message),
                    ]
                    printLine(JSONSerializer.prettyPrinted(output))
                    throw ExitCode(Self.notChecked)
                }
                throw CommandFailure.fail(withHint("error: cannot check the token: \(message)", Self.hint(error)), code: Self.notChecked)
            }
        } else if let jwksURL, let url = URL(string: jwksURL) {
            verifier = TokenVerifier(
                configuration: .facebook(appID: appID),
                keys: RemoteKeySet(url: url)
            )
        } else {
            verifier = .facebook(appID: appID)
        }
        var configuration = verifier.configuration
        do { try configuration.replaceAppIDs(with: appIDs) } catch { throw ValidationError("--app-id: \(error.description)") }
        if !issuers.isEmpty { configuration.allowedIssuers = Set(issuers) }
        configuration.leeway = leeway
        configuration.maximumTokenAge = maxAge
        let clock: any VerifierClock = try await verificationTime().map { ManualClock($0) } ?? verifier.clock
        verifier = TokenVerifier(configuration: configuration, keys: verifier.keys, clock: clock)

        do {
            let verified = try await verifier.verify(tokenText, nonce: nonceCheck)
            if json {
                let output: JSONValue = [
                    "valid": true, "app_id": .string(verified.appID), "header": .object(verified.header),
                    "claims": .object(verified.payload),
                ]
                printLine(JSONSerializer.prettyPrinted(output))
            } else {
                printLine(
                    "valid: signed by key \"\(verified.keyID)\", issued by \(verified.claims.iss) for app \(verified.appID) to \(verified.claims.sub)"
                )
                printLine(JSONSerializer.prettyPrinted(.object(verified.payload)))
            }
        } catch {
            // A key set that cannot be fetched says nothing about the token: it was not checked.
            let checked: Bool
            if case .keySetUnavailable = error { checked = false } else { checked = true }
            if json {
                let output: JSONValue = [
                    "valid": false, "checked": .bool(checked), "error": .string(error.code), "message": .string(error.description),
                ]
                printLine(JSONSerializer.prettyPrinted(output))
                throw ExitCode(checked ? 1 : Self.notChecked)
            }
            if !checked {
                throw CommandFailure.fail("error: cannot check the token: \(error.description)", code: Self.notChecked)
            }
            throw CommandFailure.fail("invalid: \(error.description)")
        }
    }

    /// The exit status when the token could not be checked at all.
    static let notChecked: Int32 = 3

    /// For a provider that does not answer: how to start one.
    static func hint(_ error: FetchError) -> String? {
        guard case .unreachable = error else { return nil }
        return "Is the provider running? Start one with 'limited-login serve'."
    }
}
