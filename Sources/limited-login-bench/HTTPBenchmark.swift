import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Requests per second for the provider's static endpoints (discovery, JWKS, certificates, `/health`)
/// against a bare Hummingbird router serving the same bytes with the same headers, in the same process
/// and run: for each path, rounds of alternating slices (ours, bare, bare, ours, …), so that a change in
/// the shared machine's speed falls on both alike; the ratio is the median of the rounds' ratios.
struct HTTPBenchmark {
    var secondsPerRound: Double
    let rounds = 5
    var clients = 8
    /// The bare router's connections run on their event loops, as the provider's do (`--bare-on-event-loops`).
    var bareOnEventLoops = false
    /// How long each slice of a round lasts.
    static let sliceSeconds = 0.25

    static let paths = [
        "/.well-known/openid-configuration/", "/.well-known/oauth/openid/jwks/", "/.well-known/oauth/openid/certs/", "/health",
    ]

    func run() async throws {
        try await BenchProvider.withNode(fileStore: true) { node, http in
            // What the provider serves for each path, for the bare router to serve the same.
            var documents: [BareRouterServer.Document] = []
            for path in Self.paths {
                let response = try await http.execute(HTTPClientRequest(url: node.baseURL + path), timeout: .seconds(30))
                guard response.status == .ok else { throw BenchmarkError.unexpectedResponse("\(path) answered \(response.status)") }
                let body = try await response.body.collect(upTo: 1 << 20)
                // Every header but those the server adds itself (the same for both: length, date, server
                // name), X-Request-Id included, so that both answers are the same bytes on the wire.
                var headers = HTTPFields()
                for header in response.headers where !["content-length", "date", "server"].contains(header.name.lowercased()) {
                    if let field = HTTPField.Name(header.name) { headers.append(HTTPField(name: field, value: header.value)) }
                }
                documents.append(.init(path: path, body: Array(buffer: body), headers: headers))
            }
            let ours = node.port
            try await BareRouterServer.with(serving: documents, onEventLoops: bareOnEventLoops) { bare in
                try await measure(ours: ours, bare: bare)
            }
        }
    }

    private func measure(ours: Int, bare: Int) async throws {
        let load = GetLoad(clients: clients)
        let bareName = bareOnEventLoops ? "bare router on event loops" : "bare router"
        print(
            "http: \(clients) keep-alive clients over loopback, \(rounds) rounds of \(secondsPerRound) s per path in alternating \(Int(Self.sliceSeconds * 1000)) ms slices of ours and a \(bareName) (Hummingbird) serving the same bytes"
        )
        var lines: [String] = []
        var cpuLines: [String] = []
        for path in Self.paths {
            _ = try await load.run(seconds: 0.2, port: ours, path: path)
            _ = try await load.run(seconds: 0.2, port: bare, path: path)
            var ourRates: [Double] = []
            var bareRates: [Double] = []
            var ratios: [Double] = []
            var cpuRatios: [Double] = []
            // Each slice also counts this process's CPU time (server, clients, the kernel's work for them),
            // which other processes on a shared machine do not move: requests per CPU second, ours and bare.
            func slice(_ port: Int) async throws -> (rate: Double, cpu: Double) {
                let start = CPUTime.process()
                let rate = try await load.run(seconds: Self.sliceSeconds, port: port, path: path)
                return (rate, CPUTime.process() - start)
            }
            for round in 1...rounds {
                var ourTotal = 0.0
                var bareTotal = 0.0
                var ourCPU = 0.0
                var bareCPU = 0.0
                let pairs = max(1, Int(secondsPerRound / (2 * Self.sliceSeconds)))
                for pair in 0..<pairs {
                    let first = try await slice(pair % 2 == 0 ? ours : bare)
                    let second = try await slice(pair % 2 == 0 ? bare : ours)
                    let (our, theirs) = pair % 2 == 0 ? (first, second) : (second, first)
                    ourTotal += our.rate
                    ourCPU += our.cpu
                    bareTotal += theirs.rate
                    bareCPU += theirs.cpu
                }
                let ourRate = ourTotal / Double(pairs)
                let bareRate = bareTotal / Double(pairs)
                // Requests per CPU second: rate × slice time ÷ CPU time, summed over the slices.
                let cpuRatio = (ourTotal / ourCPU) / (bareTotal / bareCPU)
                ourRates.append(ourRate)
                bareRates.append(bareRate)
                ratios.append(ourRate / bareRate)
                cpuRatios.append(cpuRatio)
                print(
                    String(
                        format: "  %@ round %d: %.0f/s, bare %.0f/s, ratio %.3f; per CPU second ratio %.3f", path, round, ourRate, bareRate,
                        ourRate / bareRate, cpuRatio))
            }
            lines.append(
                String(format: "http %@: %.0f/s, %.0f/s %@, ratio %.3f", path, median(ourRates), median(bareRates), bareName, median(ratios)))
            cpuLines.append(String(format: "http per CPU second %@: ratio %.3f", path, median(cpuRatios)))
        }
        for line in lines { print(line) }
        for line in cpuLines { print(line) }
    }
}
