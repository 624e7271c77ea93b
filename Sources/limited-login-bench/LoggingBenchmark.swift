import AsyncHTTPClient
import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// `logging`: what request logging costs the static endpoints, measured the way an operator meets it:
/// `limited-login serve` processes under wrk (2 threads, 64 connections), one with the default logging
/// (a line per request, standard error to a file) and one with `--log-level warning` (no request lines),
/// beside a bare Hummingbird router serving the same bytes (in this process). Each round runs the
/// three in a rotating order; the figures are the medians of the rounds' ratios. At the end the default
/// server is stopped with SIGTERM and its log's request lines are counted against the requests wrk
/// completed: a line lost at exit would show as fewer lines than requests.
struct LoggingBenchmark {
    var binary: String
    var secondsPerRound: Double = 2
    var rounds = 5
    var extraArguments: [String] = []

    static let paths = ["/.well-known/openid-configuration/", "/.well-known/oauth/openid/jwks/", "/.well-known/oauth/openid/certs/"]

    private struct Server {
        var name: String
        var port: Int
        var process: Process?
    }

    func run() async throws {
        guard let wrk = Self.which("wrk") else {
            throw BenchmarkError.unexpectedResponse("wrk is not installed (Debian: apt-get install wrk)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ll-logging-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logPath = folder + "/default.log"
        let logging = try start(log: logPath, arguments: extraArguments)
        let quiet = try start(log: folder + "/warning.log", arguments: extraArguments + ["--log-level", "warning"])
        defer {
            for process in [logging.process, quiet.process] where process?.isRunning == true { process?.terminate() }
        }
        var documents: [BareRouterServer.Document] = []
        for path in Self.paths {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(logging.port)" + path), timeout: .seconds(30))
            guard response.status == .ok else { throw BenchmarkError.unexpectedResponse("\(path) answered \(response.status)") }
            let body = try await response.body.collect(upTo: 1 << 20)
            var headers = HTTPFields()
            for header in response.headers where !["content-length", "date", "server", "x-request-id"].contains(header.name.lowercased()) {
                if let field = HTTPField.Name(header.name) { headers.append(HTTPField(name: field, value: header.value)) }
            }
            documents.append(.init(path: path, body: Array(buffer: body), headers: headers))
        }
        try await BareRouterServer.with(serving: documents) { barePort in
            let servers = [logging, quiet, Server(name: "bare router", port: barePort, process: nil)]
            print(
                "logging: wrk -t2 -c64, \(rounds) rounds of \(secondsPerRound) s per path and server, in rotating order: serve (default logging, standard error to a file), serve --log-level warning, a bare Hummingbird router serving the same bytes"
            )
            var requestsLogged = 0
            for path in Self.paths {
                var rates = Array(repeating: [Double](), count: servers.count)
                var cpuRates = Array(repeating: [Double](), count: servers.count)
                for round in 0..<rounds {
                    for offset in 0..<servers.count {
                        let index = (round + offset) % servers.count
                        let cpuBefore = try Self.cpuTime(of: servers[index])
                        let (rate, requests) = try Self.wrk(wrk, url: "http://127.0.0.1:\(servers[index].port)\(path)", seconds: secondsPerRound)
                        let cpuSeconds = try Self.cpuTime(of: servers[index]) - cpuBefore
                        rates[index].append(rate)
                        cpuRates[index].append(Double(requests) / cpuSeconds)
                        if index == 0 { requestsLogged += requests }
                    }
                }
                let ratio = { (rates: [[Double]], a: Int, b: Int) in median(zip(rates[a], rates[b]).map { $0 / $1 }) }
                print(
                    String(
                        format:
                            "  %@: default logging %.0f/s, --log-level warning %.0f/s, bare %.0f/s; default/warning %.3f, default/bare %.3f, warning/bare %.3f",
                        path, median(rates[0]), median(rates[1]), median(rates[2]), ratio(rates, 0, 1), ratio(rates, 0, 2),
                        ratio(rates, 1, 2)))
                print(
                    String(
                        format:
                            "  %@ per server CPU second: default logging %.0f, --log-level warning %.0f, bare %.0f; default/warning %.3f, default/bare %.3f, warning/bare %.3f",
                        path, median(cpuRates[0]), median(cpuRates[1]), median(cpuRates[2]), ratio(cpuRates, 0, 1),
                        ratio(cpuRates, 0, 2), ratio(cpuRates, 1, 2)))
            }
            // Every request wrk completed on the default server has its line once the server has stopped.
            logging.process?.terminate()
            logging.process?.waitUntilExit()
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let lines = log.split(separator: "\n").filter { $0.contains(" GET /.well-known/") }.count
            print(
                "  default logging: \(lines) request lines in its log after SIGTERM for \(requestsLogged) requests wrk completed\(lines >= requestsLogged ? "" : " (LINES LOST)")"
            )
        }
    }

    /// `serve` on `:memory:` and a free port with standard error to `log`; waits until it answers.
    private func start(log: String, arguments: [String]) throws -> Server {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let ready = log + ".ready"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--database", ":memory:", "--port", "0", "--ready-file", ready] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(60) {
            if let data = FileManager.default.contents(atPath: ready), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let url = object["url"] as? String, let port = URL(string: url)?.port
            {
                return Server(name: arguments.isEmpty ? "default" : arguments.joined(separator: " "), port: port, process: process)
            }
            guard process.isRunning else { throw BenchmarkError.unexpectedResponse("serve exited; see \(log)") }
            usleep(10_000)
        }
        process.terminate()
        throw BenchmarkError.unexpectedResponse("serve did not start in 60 s")
    }

    /// CPU seconds the server has used so far: a `serve` process's, or this process's for the bare router
    /// (which is all this process runs while wrk loads it: the benchmark's thread waits on wrk's output).
    private static func cpuTime(of server: Server) throws -> Double {
        guard let process = server.process else { return CPUTime.process() }
        guard let seconds = CPUTime.process(process.processIdentifier) else {
            throw BenchmarkError.unexpectedResponse("the CPU time of \(server.name) cannot be read (has it exited?)")
        }
        return seconds
    }

    /// Requests per second and requests completed, from one wrk run.
    private static func wrk(_ wrk: String, url: String, seconds: Double) throws -> (Double, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c64", "-d\(max(1, Int(seconds.rounded())))s", url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let rateLine = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let rate = Double(rateLine.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)),
            let countLine = text.split(separator: "\n").first(where: { $0.contains(" requests in ") }),
            let count = Int(countLine.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        else { throw BenchmarkError.unexpectedResponse("wrk printed no rate: \(text)") }
        if text.contains("Non-2xx") { throw BenchmarkError.unexpectedResponse("wrk got errors from \(url): \(text)") }
        return (rate, count)
    }

    private static func which(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
