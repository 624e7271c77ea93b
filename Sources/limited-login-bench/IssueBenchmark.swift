import AsyncHTTPClient
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginProvider
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// ID tokens issued per second through the real HTTP dialog, against bare RS256 signatures per second,
/// in one run; then JWKS requests per second.
///
/// The dialog load comes from `clients` threads, each with a keep-alive connection and a minimal blocking
/// HTTP client: the load generator shares the cores with the server, and a full client library would
/// spend on itself a good part of what is being measured.
///
/// The provider runs in this process on loopback, on an SQLite file, with a person signed in and a grant
/// that covers the scope, so each dialog request is answered at once with a redirect carrying a fresh
/// ID token: session, user, grant, app-scoped ID and friends lookups, the claims, the signature. The
/// clients are concurrent HTTP/1.1 connections. The baseline signs the same kind of claims with the same
/// key on as many threads as the server's event loops.
struct IssueBenchmark {
    var secondsPerRound: Double
    let rounds = 5
    var clients = 8
    /// Requests each client sends back to back before reading the answers (HTTP/1.1 pipelining).
    var pipelineDepth = 1
    let threads = System.coreCount
    /// Also measures the ceiling each round (`SigningRouterServer`): a bare router that only signs.
    var ceiling = false
    /// The dialog load alone, for a profiler (with `ceiling`: the ceiling's load alone).
    var dialogOnly = false

    func run() async throws {
        try await BenchProvider.withNode(fileStore: true, clients: clients) { node, http in
            try await measure(baseURL: node.baseURL, session: node.session, http: http)
        }
    }

    private func measure(baseURL: String, session: String, http: HTTPClient) async throws {
        let dialogURL = baseURL + BenchProvider.dialogTarget
        // One request first: it must be answered with a token, and its claims give the baseline its payload.
        let sample = try await BenchProvider.issue(dialogURL, session: session, http: http)
        let jws = try CompactJWS(parsing: sample)
        let key = try RS256PrivateKey.generate(bits: 2048)
        let signer = JWSSigner(privateKey: key, keyID: "bench-key")
        let claims = jws.payload
        guard let port = URL(string: baseURL)?.port else { throw BenchmarkError.serverDidNotStart }

        let load = DialogLoad(clients: clients, pipelineDepth: pipelineDepth)
        if dialogOnly {
            // The dialog load alone, for a profiler; with --ceiling, the ceiling's alone.
            if ceiling {
                let tokens = try await SigningRouterServer.with(signer: signer, claims: claims) { ceilingPort in
                    try await load.run(seconds: 10, ports: [ceilingPort], session: session).rate
                }
                print(String(format: "  ceiling only: %.0f tokens/s", tokens))
                return
            }
            let tokens = try await load.run(seconds: 10, ports: [port], session: session).rate
            print(String(format: "  dialog only: %.0f tokens/s", tokens))
            return
        }
        let summary: [String]
        if ceiling {
            summary = try await SigningRouterServer.with(signer: signer, claims: claims) { ceilingPort in
                try await measureRounds(port: port, session: session, dialogLoad: load, signer: signer, claims: claims, ceilingPort: ceilingPort)
            }
        } else {
            summary = try await measureRounds(port: port, session: session, dialogLoad: load, signer: signer, claims: claims, ceilingPort: nil)
        }
        let jwks = try await concurrently(seconds: secondsPerRound) {
            let response = try await http.execute(HTTPClientRequest(url: baseURL + "/.well-known/oauth/openid/jwks/"), timeout: .seconds(30))
            guard response.status == .ok else { throw BenchmarkError.unexpectedResponse("JWKS answered \(response.status)") }
            _ = try await response.body.collect(upTo: 1 << 16)
        }
        print(String(format: "jwks: %.0f requests/s", jwks))
        for line in summary { print(line) }
    }

    /// The rounds, each a half of bare signing, the dialog load, the ceiling's load (with `ceilingPort`)
    /// and the other half; returns the summary lines, printed after the JWKS line.
    private func measureRounds(
        port: Int, session: String, dialogLoad: DialogLoad, signer: JWSSigner, claims: JSONObject, ceilingPort: Int?
    ) async throws -> [String] {
        print(
            "issue: \(clients) concurrent clients over loopback (pipelining depth \(pipelineDepth)), \(threads) signing threads for the baseline, \(rounds) rounds of \(secondsPerRound) s"
        )
        var measured: [Round] = []
        for round in 1...rounds {
            let cpuStart = CPUTime.process()
            let before = await bareSigning(seconds: secondsPerRound / 2, signer: signer, claims: claims)
            let cpuAfterBare = CPUTime.process()
            let dialog = try await dialogLoad.run(seconds: secondsPerRound, ports: [port], session: session)
            let cpuAfterDialog = CPUTime.process()
            var ceiling: LoadRates?
            if let ceilingPort {
                let load = try await dialogLoad.run(seconds: secondsPerRound, ports: [ceilingPort], session: session)
                ceiling = LoadRates(load, seconds: secondsPerRound, cpuSeconds: CPUTime.process() - cpuAfterDialog)
            }
            let cpuBeforeAfterHalf = CPUTime.process()
            let after = await bareSigning(seconds: secondsPerRound / 2, signer: signer, claims: claims)
            let cpuEnd = CPUTime.process()
            let r = Round(
                dialog: LoadRates(dialog, seconds: secondsPerRound, cpuSeconds: cpuAfterDialog - cpuAfterBare),
                ceiling: ceiling,
                bare: (before + after) / 2,
                barePerCPU: (before + after) * secondsPerRound / 2 / ((cpuAfterBare - cpuStart) + (cpuEnd - cpuBeforeAfterHalf))
            )
            measured.append(r)
            var line = String(
                format:
                    "  round %d: %.0f tokens/s, bare %.0f/s, ratio %.3f; per CPU second %.0f and %.0f, ratio %.3f; per server CPU second %.0f, ratio %.3f",
                round, r.dialog.wall, r.bare, r.dialog.wall / r.bare, r.dialog.perCPU, r.barePerCPU, r.dialog.perCPU / r.barePerCPU,
                r.dialog.perServerCPU, r.dialog.perServerCPU / r.barePerCPU)
            if let ceiling {
                line += String(
                    format: "; ceiling %.0f/s, ratio %.3f, per CPU second %.3f, per server CPU second %.3f",
                    ceiling.wall, ceiling.wall / r.bare, ceiling.perCPU / r.barePerCPU, ceiling.perServerCPU / r.barePerCPU)
            }
            print(line)
        }
        // Medians over the rounds; a ratio's median is of the rounds' ratios (each round's loads ran in the same seconds).
        func middle(_ value: (Round) -> Double) -> Double { median(measured.map(value)) }
        var summary = [
            String(
                format: "issue: %.0f/s through the dialog, %.0f/s bare signature, ratio %.3f",
                middle { $0.dialog.wall }, middle { $0.bare }, middle { $0.dialog.wall / $0.bare }),
            String(
                format: "issue per CPU second: %.0f tokens through the dialog, %.0f bare signatures, ratio %.3f",
                middle { $0.dialog.perCPU }, middle { $0.barePerCPU }, middle { $0.dialog.perCPU / $0.barePerCPU }),
            String(
                format: "issue per server CPU second: %.0f tokens through the dialog, %.0f bare signatures, ratio %.3f",
                middle { $0.dialog.perServerCPU }, middle { $0.barePerCPU }, middle { $0.dialog.perServerCPU / $0.barePerCPU }),
        ]
        if ceilingPort != nil {
            func ceiling(_ value: (LoadRates, Round) -> Double) -> Double { middle { round in round.ceiling.map { value($0, round) } ?? .nan } }
            summary.append(
                String(
                    format:
                        "issue ceiling: %.0f/s from a bare router that only signs, ratio %.3f to bare signature (per CPU second %.3f, per server CPU second %.3f); the dialog at %.3f of it",
                    ceiling { c, _ in c.wall }, ceiling { c, r in c.wall / r.bare }, ceiling { c, r in c.perCPU / r.barePerCPU },
                    ceiling { c, r in c.perServerCPU / r.barePerCPU }, ceiling { c, r in r.dialog.wall / c.wall }
                ))
        }
        return summary
    }

    /// One load's rate in a round: by the wall clock, per second of this process's CPU time (server, clients
    /// and the kernel's work for them, which other processes on a shared machine do not move: by the wall
    /// clock, a busy machine gives the dialog's dozen threads a larger share of the cores than the
    /// baseline's two), and per second of the server's CPU time alone (the process's, less what the client
    /// threads used: the load generator is not the provider, and the baseline has none).
    private struct LoadRates {
        var wall: Double
        var perCPU: Double
        var perServerCPU: Double

        init(_ load: ClientThreads.Result, seconds: Double, cpuSeconds: Double) {
            wall = load.rate
            perCPU = load.rate * seconds / cpuSeconds
            perServerCPU = load.rate * seconds / (cpuSeconds - load.clientCPUSeconds)
        }
    }

    /// A round: the dialog, the ceiling (with `--ceiling`), and bare signing by the wall clock and per CPU second.
    private struct Round {
        var dialog: LoadRates
        var ceiling: LoadRates?
        var bare: Double
        var barePerCPU: Double
    }

    /// `clients` tasks running `body` in a loop for `seconds`; completions per second.
    private func concurrently(seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var count = 0
                    while clock.now < deadline {
                        try await body()
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (clock.now - start).seconds
    }

    /// Signs `claims` (serialization, base64url and RSA) on `threads` threads for `seconds`; signatures per second.
    private func bareSigning(seconds: Double, signer: JWSSigner, claims: JSONObject) async -> Double {
        let threads = self.threads
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let clock = ContinuousClock()
                let start = clock.now
                let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
                let total = Mutex(0)
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    var count = 0
                    while clock.now < deadline {
                        _ = try? signer.sign(claims: claims)
                        count += 1
                    }
                    total.withLock { $0 += count }
                }
                continuation.resume(returning: Double(total.withLock { $0 }) / (clock.now - start).seconds)
            }
        }
    }
}
