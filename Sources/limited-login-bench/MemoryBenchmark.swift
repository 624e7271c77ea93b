import AsyncHTTPClient
import Foundation

/// Resident memory of a provider on an in-memory store as logins accumulate: each login makes a session
/// in the store (as signing in does) and asks the dialog for an ID token with it (session, user, grant,
/// app-scoped ID and friends lookups, the signature). Sessions live `sessionLifetime` seconds, so a
/// store that purges expired sessions stays flat, and one that does not grows with every login.
struct MemoryBenchmark {
    var logins = 100_000
    var checkpoint = 10_000
    var sessionLifetime: Int64 = 2
    var clients = 8

    func run() async throws {
        try await BenchProvider.withNode(fileStore: false, clients: clients) { node, http in
            try await measure(node: node, http: http)
        }
    }

    private func measure(node: BenchProvider, http: HTTPClient) async throws {
        let url = node.baseURL + BenchProvider.dialogTarget
        let store = node.provider.store
        print("memory: provider on :memory:, \(clients) concurrent logins (a new session of \(sessionLifetime) s, then the dialog), \(logins) logins")
        print(String(format: "  at start: RSS %.1f MB", Self.residentMegabytes()))
        let clock = ContinuousClock()
        let start = clock.now
        var marks: [(Int, Double)] = []
        var done = 0
        // A reading every `checkpoint` logins (a tenth of a shorter run).
        let checkpoint = min(self.checkpoint, max(1, logins / 10))
        for target in stride(from: checkpoint, through: logins, by: checkpoint) {
            let lifetime = sessionLifetime
            let share = (target - done) / clients
            let extra = (target - done) % clients
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    let count = share + (client < extra ? 1 : 0)
                    group.addTask {
                        for _ in 0..<count {
                            let session = try await store.createSession(userID: "100001", lifetime: lifetime)
                            _ = try await BenchProvider.issue(url, session: session, http: http)
                        }
                    }
                }
                try await group.waitForAll()
            }
            done = target
            let rss = Self.residentMegabytes()
            marks.append((done, rss))
            print(String(format: "  after %d logins (%.0f s): RSS %.1f MB", done, (clock.now - start).seconds, rss))
        }
        let first = marks.first?.1 ?? 0
        let last = marks.last?.1 ?? 0
        print(
            String(
                format: "memory: RSS %.1f MB after %d logins, %.1f MB after %d, difference %.1f MB", first, marks.first?.0 ?? 0, last, done,
                last - first))
    }

    /// This process's resident set size, from `/proc/self/status` (0 where there is none).
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
