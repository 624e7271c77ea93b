import ArgumentParser
import AsyncHTTPClient
import Foundation
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOCore
import NIOHTTP1
import NIOSSL

/// How the admin commands reach a running provider: flags first, then `LIMITED_LOGIN_PROVIDER` and
/// `LIMITED_LOGIN_ADMIN_TOKEN` (what `serve --exec` sets for the command it runs).
struct AdminConnection: ParsableArguments {
    @Option(help: "The provider's base URL (default: $LIMITED_LOGIN_PROVIDER, else http://127.0.0.1:8080).")
    var provider: String?

    @Option(
        name: .customLong("admin-token"), help: "The admin token `serve` printed at first start or was given (default: $LIMITED_LOGIN_ADMIN_TOKEN).")
    var adminToken: String?

    @OptionGroup var trust: CAFileOption

    /// The provider's base URL, without a trailing slash; `host:port` alone means http there. Applies
    /// `--ca-file` first: every request follows this.
    func baseURL() throws -> String {
        if let problem = trust.apply() { throw CommandFailure.fail("limited-login: " + problem.dropFirst("error: ".count), code: 64) }
        let text = provider ?? ClientEnvironment.provider ?? ClientEnvironment.defaultProvider
        guard let url = ProviderAddress.url(text) else {
            throw CommandFailure.fail("limited-login: --provider must be an http(s) URL such as http://127.0.0.1:8080; got \"\(text)\"", code: 64)
        }
        return url.absoluteString
    }

    /// The admin token, or the command ends saying where to find one.
    func token() throws -> String {
        guard let token = adminToken ?? ClientEnvironment.adminToken, !token.isEmpty else {
            throw CommandFailure.fail(
                "limited-login: no admin token: give --admin-token or set LIMITED_LOGIN_ADMIN_TOKEN (serve prints it at first start, or takes --admin-token)",
                code: 64
            )
        }
        return token
    }
}

/// `--json`, for the admin commands that print text for people by default.
struct AdminOutputFormat: ParsableArguments {
    @Flag(help: "Print the provider's answer as JSON (for scripts) instead of text for people.")
    var json = false
}

/// The variables the client commands read.
enum ClientEnvironment {
    static let defaultProvider = "http://127.0.0.1:8080"
    static var provider: String? { value("LIMITED_LOGIN_PROVIDER") }
    static var adminToken: String? { value("LIMITED_LOGIN_ADMIN_TOKEN") }

    private static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

/// One call to a provider's admin API; failures end the command with one line.
enum AdminRequest {
    enum Body {
        case form(String)
        case json(JSONValue)

        /// A model of the admin API's shapes (``ProviderFixtures``' apps and users), as it encodes.
        static func model(_ value: some Encodable) throws -> Body {
            do { return .json(try StrictJSONParser().parse(Array(JSONEncoder().encode(value)))) } catch {
                throw CommandFailure.fail("limited-login: cannot encode the request: \(error)")
            }
        }
    }

    /// Why an admin call failed: nothing answered (or the transport failed), or the provider refused.
    enum CallFailure: Error {
        case unreachable(reason: String, nothingListening: Bool)
        case refused(message: String)
    }

    /// One admin call to `base` with `token`: the answer's JSON document, or why not. The callers say it
    /// their way (the admin commands exit 1, the audit 3).
    static func call(base: String, token: String, path: String, method: HTTPMethod, body: Body? = nil) async throws(CallFailure) -> JSONValue {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        switch body {
        case .form(let text)?:
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: text))
        case .json(let value)?:
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: JSONSerializer.serialize(value)))
        case nil:
            break
        }
        let status: UInt
        let bytes: ByteBuffer
        do {
            let response = try await AdminHTTPClient.client(for: base).execute(request, timeout: .seconds(30))
            status = response.status.code
            bytes = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw .unreachable(reason: TransportFailure.reason(error), nothingListening: TransportFailure.isUnreachable(error))
        }
        // A minted token's answer can be large (the audit's huge-token case): up to the body's 1 MiB.
        let document = try? StrictJSONParser(maximumSize: 1 << 20).parse(Array(bytes.readableBytesView))
        guard (200..<300).contains(status), let document else {
            throw .refused(message: document?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? "HTTP \(status)")
        }
        return document
    }

    static func send(_ connection: AdminConnection, path: String, method: HTTPMethod, body: Body? = nil) async throws -> JSONValue {
        let base = try connection.baseURL()
        let token = try connection.token()
        do {
            return try await call(base: base, token: token, path: path, method: method, body: body)
        } catch .unreachable(let reason, let nothingListening) {
            let hint = nothingListening ? "Is it running? Start one with 'limited-login serve', or give its address with --provider." : nil
            throw CommandFailure.fail(withHint("limited-login: cannot reach the provider at \(base): \(reason)", hint))
        } catch .refused(let message) {
            throw CommandFailure.fail("limited-login: the provider refused: \(message)")
        }
    }

    /// Sends, then prints the answer: `human` text, or with `--json` the answer as indented JSON.
    static func run(
        _ connection: AdminConnection, _ output: AdminOutputFormat, path: String, method: HTTPMethod, body: Body? = nil,
        human: (JSONValue) -> String
    ) async throws {
        let answer = try await send(connection, path: path, method: method, body: body)
        printLine(output.json ? JSONSerializer.prettyPrinted(answer) : human(answer))
    }
}

/// The HTTP client of the admin commands. Over https it trusts the system's roots, plus the CA in
/// `LIMITED_LOGIN_CA_FILE` (what `serve --tls --exec` sets); on a loopback address it does not check the
/// certificate at all, so that `ca export` can fetch the CA it would need (nothing but this machine can
/// answer on loopback).
enum AdminHTTPClient {
    private static let loopbackUnchecked: HTTPClient = {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
    }()

    private static let withCAFile: HTTPClient? = {
        guard let path = ProcessInfo.processInfo.environment["LIMITED_LOGIN_CA_FILE"], !path.isEmpty else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(path)]
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
    }()

    static func client(for base: String) -> HTTPClient {
        guard base.hasPrefix("https://") else { return .shared }
        if let withCAFile { return withCAFile }
        let host = URL(string: base)?.host ?? ""
        return ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) ? loopbackUnchecked : .shared
    }
}
