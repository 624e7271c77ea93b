import Foundation
import LimitedLoginTestSupport
import Logging
import Testing

@testable import LimitedLoginProvider

/// Issue #31 item 3 and #36 item 2: one client address holding idle connections cannot lock the others out.
/// The greedy client connects from 127.0.0.1, the others from 127.0.0.2 and 127.0.0.3 (all loopback on
/// Linux). The assertions count connections and answers, never time: every wait is a generous bound on a
/// liveness check.
@Suite("Fair connections: a per-address share of the maximum")
struct FairConnectionTests {
    /// The issue's reproduction: with the default limits, one client opens 1,000 idle connections.
    @Test("one client opening 1,000 idle connections holds 250 (a quarter of the default 1,000); every request of another client is answered")
    func greedyClientGetsItsShare() async throws {
        var limits = ConnectionLimits(headerTimeout: .seconds(600))  // the greedy client's idle connections stay for the test
        limits.refusalLogInterval = .seconds(600)
        #expect(limits.servedPerAddress == 250)
        let logs = CapturedLogs()
        var logger = Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) })
        logger.logLevel = .warning
        try await withServedProvider(limits, logger: logger) { port in
            let (held, answers, heldAfter) = try await onOwnThread {
                let greedy = (0..<1000).compactMap { _ in try? LoopbackSocket(port: port, from: "127.0.0.1") }
                // The refused are closed at accept; wait until only the admitted are open (a bound, not a speed).
                var open = greedy.count
                for _ in 0..<600 where open > 250 {
                    pauseThread(for: .milliseconds(100))
                    open = greedy.filter { $0.state() == .open }.count
                }
                let answers = (0..<30).map { index in
                    (try? LoopbackSocket(port: port, from: index.isMultiple(of: 2) ? "127.0.0.2" : "127.0.0.3")
                        .exchangeBlocking(healthRequest, within: .seconds(60))) ?? "no answer"
                }
                let heldAfter = greedy.filter { $0.state() == .open }.count
                withExtendedLifetime(greedy) {}
                return (open, answers, heldAfter)
            }
            #expect(held == 250, "the greedy client holds \(held) connections")
            #expect(heldAfter == 250, "the greedy client's admitted connections were kept: \(heldAfter)")
            #expect(
                answers.filter { $0.hasPrefix("HTTP/1.1 200 OK") }.count == 30, "\(answers.filter { !$0.hasPrefix("HTTP/1.1 200 OK") }.prefix(3))")
            let lines = logs.records.withLock { $0.filter { $0.hasPrefix("warning Refused") } }
            #expect(
                lines.first?.contains(
                    "Refused 1 connection since the last report: their client address held 250, its share (serve --max-connections-per-address, ConnectionLimits.maximumConnectionsPerAddress)."
                ) == true, "\(lines)")
        }
    }

    @Test(
        "the share given is kept to; one address at its share does not stop another address; at the maximum the longest-idle connection makes room"
    )
    func configuredShare() async throws {
        let limits = ConnectionLimits(maximumConnections: 5, maximumConnectionsPerAddress: 2)
        try await withServedProvider(limits) { port in
            let (first, second, third, openStates) = try await onOwnThread { () -> ([String], [String], [String], [Bool]) in
                func attempt(_ count: Int, from source: String, keeping kept: inout [LoopbackSocket]) -> [String] {
                    (0..<count).map { _ in
                        guard let socket = try? LoopbackSocket(port: port, from: source) else { return "no connection" }
                        kept.append(socket)
                        return (try? socket.exchangeBlocking(healthRequest, within: .seconds(60))) ?? "closed"
                    }
                }
                var kept: [LoopbackSocket] = []
                let first = attempt(3, from: "127.0.0.1", keeping: &kept)
                let second = attempt(3, from: "127.0.0.2", keeping: &kept)
                let third = attempt(2, from: "127.0.0.3", keeping: &kept)
                // The evicted connection is closed by the provider: wait for it (a liveness bound, not a speed).
                for _ in 0..<600 where kept[0].state() == .open { pauseThread(for: .milliseconds(100)) }
                let states = kept.map { $0.state() == .open }
                withExtendedLifetime(kept) {}
                return (first, second, third, states)
            }
            func answered(_ answers: [String]) -> Int { answers.filter { $0.hasPrefix("HTTP/1.1 200 OK") }.count }
            #expect(answered(first) == 2, "127.0.0.1: \(first)")
            #expect(answered(second) == 2, "127.0.0.2: \(second)")
            #expect(answered(third) == 2, "at the maximum of 5, 127.0.0.3's second connection is admitted in place of an idle one: \(third)")
            // 127.0.0.1's third attempt was refused for its share (closed at once), and its first connection, idle
            // longest, was closed to make room: five remain open, the maximum.
            #expect(openStates.first == false, "the longest-idle connection was closed: \(openStates)")
            #expect(openStates.filter { $0 }.count == 5, "\(openStates)")
        }
    }

    @Test("five greedy addresses, each holding its share of idle connections, leave a new client served: idle connections make room")
    func greedyAddressesAtTheCap() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(600), maximumConnections: 20, maximumConnectionsPerAddress: 5)
        try await withServedProvider(limits) { port in
            let (greedyAdmitted, answers) = try await onOwnThread { () -> (Int, [String]) in
                // Four addresses fill the maximum; the fifth's connections each take the place of an idle one.
                var greedy: [LoopbackSocket] = []
                for address in 2...6 {
                    for _ in 0..<5 { if let socket = try? LoopbackSocket(port: port, from: "127.0.0.\(address)") { greedy.append(socket) } }
                }
                let answers = (0..<10).map { _ in
                    (try? LoopbackSocket(port: port, from: "127.0.0.7").exchangeBlocking(healthRequest, within: .seconds(60))) ?? "no answer"
                }
                var open = greedy.filter { $0.state() == .open }.count
                for _ in 0..<600 where open > 20 {
                    pauseThread(for: .milliseconds(100))
                    open = greedy.filter { $0.state() == .open }.count
                }
                withExtendedLifetime(greedy) {}
                return (open, answers)
            }
            #expect(
                answers.filter { $0.hasPrefix("HTTP/1.1 200 OK") }.count == 10, "\(answers.filter { !$0.hasPrefix("HTTP/1.1 200 OK") }.prefix(3))")
            #expect(greedyAdmitted <= 20, "the maximum holds: \(greedyAdmitted) greedy connections open")
        }
    }
}
