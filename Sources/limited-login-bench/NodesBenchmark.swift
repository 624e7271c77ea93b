import Foundation
import LimitedLoginProvider

/// ID tokens issued per second through the dialog by two provider nodes sharing one PostgreSQL database
/// (the clients split evenly between them), against one node on an SQLite file, in the same run, in
/// alternating rounds. Both nodes run in this process, so they share its cores with the load: the figure
/// says what the shared database costs, not what a second machine would add.
struct NodesBenchmark {
    var secondsPerRound: Double
    var postgresURL: String
    let rounds = 5
    var clients = 8

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = try await BenchProvider.start(store: .sqliteFile(path: folder.appendingPathComponent("bench.sqlite").path))
        let first = try await BenchProvider.start(store: .postgres(url: postgresURL))
        let second = try await BenchProvider.start(store: .postgres(url: postgresURL), session: first.session)
        let load = DialogLoad(clients: clients, pipelineDepth: 1)
        print(
            "nodes: \(clients) concurrent clients over loopback; one node on SQLite, then two nodes on one PostgreSQL database; \(rounds) rounds of \(secondsPerRound) s"
        )
        var sqliteRates: [Double] = []
        var postgresRates: [Double] = []
        do {
            for round in 1...rounds {
                let sqlite = try await load.run(seconds: secondsPerRound, ports: [single.port], session: single.session).rate
                let postgres = try await load.run(seconds: secondsPerRound, ports: [first.port, second.port], session: first.session).rate
                sqliteRates.append(sqlite)
                postgresRates.append(postgres)
                print(String(format: "  round %d: one node on SQLite %.0f tokens/s, two nodes on PostgreSQL %.0f tokens/s", round, sqlite, postgres))
            }
        } catch {
            for node in [single, first, second] { await node.stop() }
            throw error
        }
        for node in [single, first, second] { await node.stop() }
        let sqlite = sqliteRates.sorted()[rounds / 2]
        let postgres = postgresRates.sorted()[rounds / 2]
        print(String(format: "nodes: two nodes on PostgreSQL %.0f/s, one node on SQLite %.0f/s, ratio %.3f", postgres, sqlite, postgres / sqlite))
    }
}
