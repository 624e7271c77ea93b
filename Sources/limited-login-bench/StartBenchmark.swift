import Foundation
import LimitedLoginProvider

#if canImport(Glibc)
import Glibc
#endif

/// `start`: how long `limited-login serve` takes from exec to its first `/health` 200, as a ratio to the
/// same binary's `--version` (exec to exit) measured in the same run, runs interleaved (version, existing
/// store, `:memory:` with a given key, `:memory:` from nothing, …) so that the machine's moments fall on
/// all alike. The median of `runs` of each is the figure.
///
/// - **existing store**: an SQLite file a first start made (keys, demo data): what a restart costs.
/// - **`:memory:` with a given key**: `--fixtures` with the state the first start exported on exit (keys,
///   apps, users): what a test fixture that starts a provider per test pays.
/// - **`:memory:` from nothing**: a first start (a key made, demo data seeded), for reference.
///
/// `--large`: the existing store again, holding 100,000 users and 1,000,000 sessions (``LargeStore``), beside
/// `PRAGMA quick_check` alone on that file (what the start's integrity check costs of it).
struct StartBenchmark {
    var binary: String
    var runs = 20
    var large = false

    private struct Setup {
        var name: String
        var arguments: [String]
    }

    func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchmarkError.unexpectedResponse("\(binary) is not an executable; build it with 'swift build -c release --product limited-login'")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ll-start-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/store.sqlite"
        let state = folder + "/state.json"
        // The first start makes the store (and writes its state, keys included, on exit).
        _ = try serveUntilHealthy(["--database", store, "--export-on-exit", state])
        guard FileManager.default.fileExists(atPath: state) else { throw BenchmarkError.unexpectedResponse("the first start wrote no state") }
        var setups = [
            Setup(name: "existing store", arguments: ["--database", store]),
            Setup(name: ":memory: with a given key", arguments: ["--database", ":memory:", "--fixtures", state]),
            Setup(name: ":memory: from nothing", arguments: ["--database", ":memory:"]),
        ]
        if large {
            let largeStore = folder + "/large.sqlite"
            try LargeStore.make(at: largeStore, from: store)
            setups = [
                Setup(name: "existing store", arguments: ["--database", store]), Setup(name: LargeStore.name, arguments: ["--database", largeStore]),
            ]
            var checks: [Double] = []
            for _ in 0..<runs { checks.append(try LargeStore.timeQuickCheck(largeStore)) }
            print(
                String(
                    format: "  PRAGMA quick_check alone on %@: median %.1f ms (%.1f–%.1f)", LargeStore.name, median(checks) * 1000,
                    checks.min()! * 1000, checks.max()! * 1000))
        }
        print("start: \(binary), \(runs) runs of each, interleaved: exec to exit for --version; exec to the first /health 200 for serve")
        var version: [Double] = []
        var serving = Array(repeating: [Double](), count: setups.count)
        // One untimed round first: the binary's pages are then in the page cache for every setup alike.
        _ = try timeVersion()
        for round in 0..<(runs + 1) {
            let versionSeconds = try timeVersion()
            var seconds: [Double] = []
            for setup in setups { seconds.append(try serveUntilHealthy(setup.arguments)) }
            guard round > 0 else { continue }
            version.append(versionSeconds)
            for index in setups.indices { serving[index].append(seconds[index]) }
        }
        let versionMedian = median(version)
        print(String(format: "  --version: median %.1f ms (%.1f–%.1f)", versionMedian * 1000, version.min()! * 1000, version.max()! * 1000))
        for (index, setup) in setups.enumerated() {
            let times = serving[index]
            print(
                String(
                    format: "  serve, %@: median %.1f ms (%.1f–%.1f), %.2f× --version", setup.name, median(times) * 1000, times.min()! * 1000,
                    times.max()! * 1000, median(times) / versionMedian))
        }
    }

    /// Seconds from exec to exit of `binary --version`.
    private func timeVersion() throws -> Double {
        let process = quietProcess(["--version"])
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        return Self.seconds(ContinuousClock.now - start)
    }

    /// Seconds from exec of `serve` with `arguments` on a free port to its first `/health` 200; then
    /// stops it (SIGTERM) and waits for it to exit.
    private func serveUntilHealthy(_ arguments: [String]) throws -> Double {
        guard let port = freeLoopbackPort() else { throw BenchmarkError.unexpectedResponse("no free port on 127.0.0.1") }
        let process = quietProcess(["serve", "--port", String(port), "--admin-token", "bench-admin-token-0123456789"] + arguments)
        let start = ContinuousClock.now
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        while true {
            if Self.healthAnswers(port: port) { return Self.seconds(ContinuousClock.now - start) }
            guard process.isRunning else { throw BenchmarkError.unexpectedResponse("serve \(arguments.joined(separator: " ")) exited") }
            guard ContinuousClock.now - start < .seconds(30) else { throw BenchmarkError.unexpectedResponse("serve did not answer in 30 s") }
            usleep(200)
        }
    }

    private func quietProcess(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }

    /// True when `GET /health` on the port answers 200 (false when nothing listens yet).
    private static func healthAnswers(port: Int) -> Bool {
        guard let connection = try? RawHTTPConnection(port: port),
            let responses = try? connection.exchange(Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), headerName: "content-type")
        else { return false }
        return responses.first?.status == 200
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
