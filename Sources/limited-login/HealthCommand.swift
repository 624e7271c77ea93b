import ArgumentParser
import AsyncHTTPClient
import Foundation
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOCore

/// `limited-login health`: asks a provider's `GET /health`, for container health checks and CI scripts that
/// wait for a provider. Exit 0 when it answers 200; otherwise one line on standard error and exit 1.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check that a provider answers GET /health with 200 (exit 0), or say in one line why not (exit 1).",
        discussion: """
            For a container's health check and for scripts that wait for a provider to be ready:
              limited-login health --provider http://127.0.0.1:8080
              limited-login health --wait 30          # retry for up to 30 s until it is healthy
            /health answers 200 when the provider's store answers and a key can sign, 503 otherwise.
            """
    )

    @Option(help: "The provider's base URL (default: $LIMITED_LOGIN_PROVIDER, else http://127.0.0.1:8080); host:port alone means http there.")
    var provider: String?

    @Option(
        help: ArgumentHelp(
            "Keep asking, twice a second, for up to this many seconds until the provider is healthy (default: ask once).", valueName: "seconds"))
    var wait: Double = 0

    @Option(help: ArgumentHelp("How long one request may take.", valueName: "seconds"))
    var timeout: Double = 5

    @Flag(name: .shortAndLong, help: "Print nothing when healthy.")
    var quiet = false

    @OptionGroup var trust: CAFileOption

    func validate() throws {
        guard (0...3600).contains(wait) else { throw ValidationError("--wait must be between 0 and 3600 seconds.") }
        guard timeout > 0, timeout <= 300 else { throw ValidationError("--timeout must be more than 0 and at most 300 seconds.") }
    }

    func run() async throws {
        if let problem = trust.apply() { throw CommandFailure.fail("limited-login health: " + problem.dropFirst("error: ".count), code: 64) }
        let text = provider ?? ClientEnvironment.provider ?? ClientEnvironment.defaultProvider
        guard let base = ProviderAddress.url(text)?.absoluteString else {
            throw CommandFailure.fail(
                "limited-login health: --provider must be an http(s) URL such as http://127.0.0.1:8080; got \"\(text)\"", code: 64)
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(wait * 1000))
        while true {
            let problem = await Self.check(base + "/health", timeout: timeout)
            guard let problem else {
                if !quiet { printLine("healthy: \(base)/health answered 200") }
                return
            }
            if clock.now >= deadline {
                let waited = wait > 0 ? " (after waiting \(Self.seconds(wait)))" : ""
                throw CommandFailure.fail("limited-login health: \(base)/health: \(problem)\(waited)")
            }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Nil when `url` answers 200; otherwise why not, as a clause.
    static func check(_ url: String, timeout: Double) async -> String? {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        do {
            let response = try await AdminHTTPClient.client(for: url).execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            let body = try await response.body.collect(upTo: 64 * 1024)
            guard response.status.code == 200 else {
                let status = (try? StrictJSONParser().parse(Array(body.readableBytesView)))?.objectValue?["status"]?.stringValue
                return "HTTP \(response.status.code)" + (status.map { " (\($0))" } ?? "")
                    + (response.status.code == 503 ? ": the provider is up but its store or signing key is not usable; see its log" : "")
            }
            return nil
        } catch {
            let hint =
                TransportFailure.isUnreachable(error)
                ? ". Is it running? Start one with 'limited-login serve', or give its address with --provider." : ""
            return TransportFailure.reason(error) + hint
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
