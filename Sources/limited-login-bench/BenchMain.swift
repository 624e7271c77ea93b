import Foundation

/// `limited-login-bench <benchmark>`: release-mode measurements, each against a baseline in the same run.
@main
enum BenchMain {
    static let usage = """
        usage: swift run -c release limited-login-bench <benchmark> [--seconds N] [--clients N] [--pipeline N] (issue: defaults 8 and 1)

        benchmarks:
          verify   full ID-token verifications per second with a warm remote key cache,
                   against bare RS256 signature checks per second on the same token
                   (--breakdown: each stage's cost; --full-only: full verifications alone, to profile;
                   --repeated: the same token again with the verified-token cache on, against bare RSA;
                   --distinct: 256 tokens in turn, each seen once a turn, through the cache (misses);
                   --distinct --cache-off: the same tokens without the cache)
          issue    ID tokens issued per second through the provider's real HTTP dialog (signed-in
                   session, concurrent loopback clients), against bare RS256 signatures per second
                   on as many threads as the server's event loops, by the wall clock, per second of
                   the process's CPU and per second of the server's (less the client threads'); then
                   JWKS requests per second (--dialog-only: the dialog load alone, for a profiler;
                   --ceiling: each round also loads a bare Hummingbird router that only signs the
                   same claims and redirects, on its event loops: what any provider on this HTTP
                   stack could reach; with --dialog-only, the ceiling's load alone)
          nodes    ID tokens per second from two nodes on one PostgreSQL database against one node on
                   SQLite, same run (--postgres URL, or $LIMITED_LOGIN_TEST_POSTGRES_URL; a fresh
                   server: scripts/postgres-for-tests start)
          http     requests per second for discovery, JWKS, certs and /health against a bare Hummingbird
                   router serving the same bytes in the same process (--clients N, default 8;
                   --bare-on-event-loops: the bare router's connections run on their event loops, as
                   the provider's do, which leaves only what the provider's own code costs)
          memory   resident memory of a provider on :memory: after 10,000 and 100,000 logins (a session
                   made as sign-in makes it, then the dialog issuing a token with it; --logins N,
                   --session-lifetime S, default 2 s)
          signin-timing
                   a failed sign-in's time through the real dialog for a known email (wrong password)
                   against unknown emails, alternated, medians and their ratio (--tries N, default 200)
          idle-memory
                   resident memory of an in-process provider with N idle keep-alive connections open
                   (--connections N, default 1000) and after they close, three rounds: what they take
                   and how much of it is kept
        """

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var seconds = 2.0
        if let index = arguments.firstIndex(of: "--seconds"), index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 {
            seconds = value
            arguments.removeSubrange(index...(index + 1))
        }
        switch arguments.first {
        case "verify":
            do {
                try await VerifyBenchmark(secondsPerRound: seconds).run()
            } catch {
                FileHandle.standardError.write(Data("verify benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "issue":
            do {
                var benchmark = IssueBenchmark(secondsPerRound: seconds)
                if let clients = positive("--clients", in: arguments) { benchmark.clients = clients }
                if let depth = positive("--pipeline", in: arguments) { benchmark.pipelineDepth = depth }
                benchmark.ceiling = arguments.contains("--ceiling")
                try await benchmark.run()
            } catch {
                FileHandle.standardError.write(Data("issue benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "nodes":
            let environment = ProcessInfo.processInfo.environment["LIMITED_LOGIN_TEST_POSTGRES_URL"]
            var url = environment
            if let index = arguments.firstIndex(of: "--postgres"), index + 1 < arguments.count { url = arguments[index + 1] }
            guard let url, !url.isEmpty else {
                FileHandle.standardError.write(
                    Data("nodes: give --postgres postgres://user@127.0.0.1:PORT/DATABASE (scripts/postgres-for-tests start prints one)\n".utf8))
                exit(2)
            }
            do {
                try await NodesBenchmark(secondsPerRound: seconds, postgresURL: url).run()
            } catch {
                FileHandle.standardError.write(Data("nodes benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "http":
            do {
                var benchmark = HTTPBenchmark(secondsPerRound: seconds)
                benchmark.bareOnEventLoops = arguments.contains("--bare-on-event-loops")
                if let clients = positive("--clients", in: arguments) { benchmark.clients = clients }
                try await benchmark.run()
            } catch {
                FileHandle.standardError.write(Data("http benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "memory":
            do {
                var benchmark = MemoryBenchmark()
                if let logins = positive("--logins", in: arguments) { benchmark.logins = logins }
                if let index = arguments.firstIndex(of: "--session-lifetime"), index + 1 < arguments.count, let lifetime = Int64(arguments[index + 1])
                {
                    benchmark.sessionLifetime = lifetime
                }
                try await benchmark.run()
            } catch {
                FileHandle.standardError.write(Data("memory benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "signin-timing":
            do {
                var benchmark = SignInTimingBenchmark()
                if let tries = positive("--tries", in: arguments) { benchmark.tries = tries }
                try await benchmark.run()
            } catch {
                FileHandle.standardError.write(Data("signin-timing benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "idle-memory":
            do {
                var benchmark = IdleConnectionMemoryBenchmark()
                if let connections = positive("--connections", in: arguments) { benchmark.connections = connections }
                try await benchmark.run()
            } catch {
                FileHandle.standardError.write(Data("idle-memory benchmark failed: \(error)\n".utf8))
                exit(1)
            }
        case "-h", "--help", "help":
            print(usage)
        default:
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(2)
        }
    }

    /// The whole number greater than 0 after `flag`, or nil when the flag is absent (the default stands).
    private static func positive(_ flag: String, in arguments: [String]) -> Int? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count,
            let value = Int(arguments[index + 1]), value > 0
        else { return nil }
        return value
    }
}
