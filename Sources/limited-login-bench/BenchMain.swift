import ArgumentParser
import Foundation

/// `limited-login-bench <benchmark>`: release-mode measurements, each against a baseline in the same run
/// (docs/PERFORMANCE.md has the method and the current figures).
@main
struct BenchMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limited-login-bench",
        abstract: "Release-mode benchmarks, each against a baseline measured in the same run.",
        discussion: "Build with 'swift build -c release --product limited-login-bench', then run .build/release/limited-login-bench <benchmark>.",
        subcommands: [
            Verify.self, Issue.self, Nodes.self, HTTP.self, Memory.self, SignInTiming.self, IdleMemory.self, Start.self, Logging.self,
        ]
    )

    /// `--seconds`: each round's length, for the benchmarks measured in rounds.
    struct Rounds: ParsableArguments {
        @Option(help: "Seconds per round.")
        var seconds: Double = 2

        func validate() throws {
            guard seconds > 0 else { throw ValidationError("--seconds must be above 0.") }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Full ID-token verifications per second with a warm remote key cache, against bare RS256 checks of the same token."
        )
        @OptionGroup var rounds: Rounds
        @Flag(help: "Each stage's cost.") var breakdown = false
        @Flag(name: .customLong("full-only"), help: "Full verifications alone, to profile.") var fullOnly = false
        @Flag(help: "The same token again with the verified-token cache on, against bare RSA.") var repeated = false
        @Flag(help: "256 tokens in turn, each seen once a turn, through the cache (misses).") var distinct = false
        @Flag(name: .customLong("cache-off"), help: "With --distinct: the same tokens without the cache.") var cacheOff = false

        func run() async throws {
            var benchmark = VerifyBenchmark(secondsPerRound: rounds.seconds)
            benchmark.breakdown = breakdown
            benchmark.fullOnly = fullOnly
            benchmark.repeated = repeated
            benchmark.distinct = distinct
            benchmark.cacheOff = cacheOff
            try await BenchMain.running("verify") { try await benchmark.run() }
        }
    }

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "ID tokens issued per second through the provider's real HTTP dialog, against bare RS256 signatures; then JWKS requests.",
            discussion: """
                The dialog runs with a signed-in session and concurrent loopback clients; the baseline signs on as many threads as the \
                server's event loops, by the wall clock, per second of the process's CPU and per second of the server's.
                """
        )
        @OptionGroup var rounds: Rounds
        @Option(help: "Concurrent loopback clients.") var clients = 8
        @Option(help: "Requests each client sends back to back before reading the answers (HTTP/1.1 pipelining).") var pipeline = 1
        @Flag(help: "Each round also loads a bare router that only signs the same claims: what any provider on this stack could reach.")
        var ceiling = false
        @Flag(name: .customLong("dialog-only"), help: "The dialog load alone, for a profiler (with --ceiling: the ceiling's load alone).")
        var dialogOnly = false

        func validate() throws {
            guard clients > 0, pipeline > 0 else { throw ValidationError("--clients and --pipeline must be above 0.") }
        }

        func run() async throws {
            var benchmark = IssueBenchmark(secondsPerRound: rounds.seconds)
            benchmark.clients = clients
            benchmark.pipelineDepth = pipeline
            benchmark.ceiling = ceiling
            benchmark.dialogOnly = dialogOnly
            try await BenchMain.running("issue") { try await benchmark.run() }
        }
    }

    struct Nodes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "ID tokens per second from two nodes on one PostgreSQL database, against one node on SQLite, in the same run."
        )
        @OptionGroup var rounds: Rounds
        @Option(help: "The PostgreSQL URL (default: $LIMITED_LOGIN_TEST_POSTGRES_URL; scripts/postgres-for-tests start prints one).")
        var postgres: String?

        func run() async throws {
            guard let url = postgres ?? ProcessInfo.processInfo.environment["LIMITED_LOGIN_TEST_POSTGRES_URL"], !url.isEmpty else {
                throw ValidationError("Give --postgres postgres://user@127.0.0.1:PORT/DATABASE (scripts/postgres-for-tests start prints one).")
            }
            try await BenchMain.running("nodes") { try await NodesBenchmark(secondsPerRound: rounds.seconds, postgresURL: url).run() }
        }
    }

    struct HTTP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "http",
            abstract: "Requests per second for discovery, JWKS, certs and /health, against a bare router serving the same bytes."
        )
        @OptionGroup var rounds: Rounds
        @Option(help: "Concurrent loopback clients.") var clients = 8
        @Flag(name: .customLong("bare-on-event-loops"), help: "The bare router's connections run on their event loops, as the provider's do.")
        var bareOnEventLoops = false

        func validate() throws {
            guard clients > 0 else { throw ValidationError("--clients must be above 0.") }
        }

        func run() async throws {
            var benchmark = HTTPBenchmark(secondsPerRound: rounds.seconds)
            benchmark.clients = clients
            benchmark.bareOnEventLoops = bareOnEventLoops
            try await BenchMain.running("http") { try await benchmark.run() }
        }
    }

    struct Memory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Resident memory of a provider on :memory: after 10,000 and 100,000 logins (or --logins)."
        )
        @Option(help: "Logins to make.") var logins: Int?
        @Option(name: .customLong("session-lifetime"), help: "Seconds a session lasts.") var sessionLifetime: Int64?
        @Flag(
            name: .customLong("sign-in"),
            help: "Each login through the sign-in page as a new browser (a used form and a 30-day session), not a session made in the store.")
        var signIn = false

        func run() async throws {
            var benchmark = MemoryBenchmark()
            if let logins, logins > 0 { benchmark.logins = logins }
            if let sessionLifetime { benchmark.sessionLifetime = sessionLifetime }
            benchmark.signIn = signIn
            try await BenchMain.running("memory") { try await benchmark.run() }
        }
    }

    struct SignInTiming: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signin-timing",
            abstract: "A failed sign-in's time for a known email (wrong password) against unknown emails, alternated: medians and their ratio."
        )
        @Option(help: "Tries of each.") var tries = 200

        func run() async throws {
            var benchmark = SignInTimingBenchmark()
            benchmark.tries = max(1, tries)
            try await BenchMain.running("signin-timing") { try await benchmark.run() }
        }
    }

    struct IdleMemory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "idle-memory",
            abstract: "Resident memory of an in-process provider with N idle keep-alive connections, and after they close (three rounds)."
        )
        @Option(help: "Idle connections to open.") var connections = 1000

        func run() async throws {
            var benchmark = IdleConnectionMemoryBenchmark()
            benchmark.connections = max(1, connections)
            try await BenchMain.running("idle-memory") { try await benchmark.run() }
        }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Exec to the first /health 200 of 'limited-login serve' (existing store; :memory: with a given key; :memory: from nothing), against the same binary's --version."
        )
        @Option(help: "The limited-login binary to start.") var binary = ".build/release/limited-login"
        @Option(help: "Runs of each (the median is the figure).") var runs = 20
        @Flag(
            help:
                "Also a store of 100,000 users and 1,000,000 sessions (made with the sqlite3 shell), beside PRAGMA quick_check alone on it.")
        var large = false

        func run() async throws {
            let benchmark = StartBenchmark(binary: binary, runs: max(1, runs), large: large)
            try await BenchMain.running("start") { try await benchmark.run() }
        }
    }

    struct Logging: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Static endpoints under wrk: 'serve' with default logging, with --log-level warning, and a bare router serving the same bytes."
        )
        @Option(help: "The limited-login binary to serve with.") var binary = ".build/release/limited-login"
        @Option(help: "Seconds per wrk run (whole seconds).") var seconds = 2
        @Option(help: "Rounds per path.") var rounds = 5
        @Option(
            name: .customLong("serve-argument"),
            help: "An extra argument for both serve processes (repeat), e.g. --serve-argument=--log-format --serve-argument=json.")
        var serveArguments: [String] = []

        func run() async throws {
            let benchmark = LoggingBenchmark(
                binary: binary, secondsPerRound: Double(max(1, seconds)), rounds: max(1, rounds), extraArguments: serveArguments)
            try await BenchMain.running("logging") { try await benchmark.run() }
        }
    }

    /// Runs a benchmark; a failure is one line and exit status 1.
    static func running(_ name: String, _ body: () async throws -> Void) async throws {
        do { try await body() } catch {
            FileHandle.standardError.write(Data("\(name) benchmark failed: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
