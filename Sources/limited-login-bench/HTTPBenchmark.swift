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
    /// How long each slice of a round lasts.
    static let sliceSeconds = 0.25

    static let paths = [
        "/.well-known/openid-configuration/", "/.well-known/oauth/openid/jwks/", "/.well-known/oauth/openid/certs/", "/health",
    ]

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = try await BenchProvider.start(store: .sqliteFile(path: folder.appendingPathComponent("bench.sqlite").path))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
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
            let bare = try await BareRouterServer.start(serving: documents)
            do {
                try await measure(ours: node.port, bare: bare.port)
            } catch {
                await bare.stop()
                throw error
            }
            await bare.stop()
        } catch {
            try? await http.shutdown()
            await node.stop()
            throw error
        }
        try await http.shutdown()
        await node.stop()
    }

    private func measure(ours: Int, bare: Int) async throws {
        let load = GetLoad(clients: clients)
        print("http: \(clients) keep-alive clients over loopback, \(rounds) rounds of \(secondsPerRound) s per path in alternating \(Int(Self.sliceSeconds * 1000)) ms slices of ours and a bare Hummingbird router serving the same bytes")
        var lines: [String] = []
        for path in Self.paths {
            _ = try await load.run(seconds: 0.2, port: ours, path: path)
            _ = try await load.run(seconds: 0.2, port: bare, path: path)
            var ourRates: [Double] = [], bareRates: [Double] = [], ratios: [Double] = []
            for round in 1...rounds {
                var ourTotal = 0.0, bareTotal = 0.0
                let pairs = max(1, Int(secondsPerRound / (2 * Self.sliceSeconds)))
                for pair in 0..<pairs {
                    if pair % 2 == 0 {
                        ourTotal += try await load.run(seconds: Self.sliceSeconds, port: ours, path: path)
                        bareTotal += try await load.run(seconds: Self.sliceSeconds, port: bare, path: path)
                    } else {
                        bareTotal += try await load.run(seconds: Self.sliceSeconds, port: bare, path: path)
                        ourTotal += try await load.run(seconds: Self.sliceSeconds, port: ours, path: path)
                    }
                }
                let ourRate = ourTotal / Double(pairs), bareRate = bareTotal / Double(pairs)
                ourRates.append(ourRate)
                bareRates.append(bareRate)
                ratios.append(ourRate / bareRate)
                print(String(format: "  %@ round %d: %.0f/s, bare %.0f/s, ratio %.3f", path, round, ourRate, bareRate, ourRate / bareRate))
            }
            lines.append(String(format: "http %@: %.0f/s, %.0f/s bare router, ratio %.3f", path, median(ourRates), median(bareRates), median(ratios)))
        }
        for line in lines { print(line) }
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
