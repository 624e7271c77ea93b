import Foundation
import LimitedLoginTestSupport
import Logging
import Testing

@testable import LimitedLoginProvider

/// Runs a provider with `limits` on 127.0.0.1 on a free port for the length of `body`, as `serve` runs it
/// (the same application and child channel), and gives the port.
func withServedProvider<Value: Sendable>(
    _ limits: ConnectionLimits,
    logger: Logger = TestFixtures.quietLogger,
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value {
    var configuration = TestFixtures.configuration(publicBaseURL: nil)
    configuration.connectionLimits = limits
    let provider = try await LimitedLoginProvider.prepare(configuration, logger: logger)
    let (baseURLs, running) = AsyncStream<String>.makeStream()
    let server = Task {
        try await provider.application { baseURL in running.yield(baseURL) }.runService(gracefulShutdownSignals: [])
    }
    defer { running.finish() }
    var iterator = baseURLs.makeAsyncIterator()
    do {
        let baseURL = try #require(await iterator.next())
        let port = try #require(URLComponents(string: baseURL)?.port)
        let value = try await body(port)
        server.cancel()
        _ = await server.result
        await provider.store.close()
        return value
    } catch {
        server.cancel()
        _ = await server.result
        await provider.store.close()
        throw error
    }
}

let healthRequest = keepAliveRequest("/health")

/// A margin for the scheduler of a busy two-core machine: a limit is met if the server closes the
/// connection no earlier than 100 ms before it and no later than this after it. A liveness bound, not a
/// speed: the whole suite beside two busy processes once starved this process for tens of seconds.
private let lateness = Duration.seconds(10)

private func seconds(_ duration: Duration) -> String {
    String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
}

/// Each client below runs on a thread of its own (`onOwnThread`), pausing with `pauseThread`: its timing must
/// hold while the rest of the suite keeps the cooperative pool busy (in CI, a `Task.sleep` of 100 ms once woke
/// seconds late, so a body sent in time arrived after the timeout). The provider keeps time on its event loops.
@Suite("Connection limits: a real provider on loopback, real sockets")
struct ConnectionLimitTests {
    @Test("a request head sent a byte at a time, slower than the header timeout, is cut at the timeout; the same head within it is answered")
    func slowRequestHead() async throws {
        // 6 s, so that the prompt client's 0.2 s head has room on a machine busy with the whole suite and more
        // (issue #30: the suite must pass beside two busy processes).
        let limits = ConnectionLimits(headerTimeout: .seconds(6), idleTimeout: .seconds(30), bodyTimeout: .seconds(30))
        try await withServedProvider(limits) { port in
            async let slow: (sent: Int, closedAfter: Duration?) = onOwnThread {
                // One byte every 300 ms: the 65-byte head would take 20 s, far past the 6 s timeout.
                let socket = try LoopbackSocket(port: port)
                let start = ContinuousClock.now
                for (index, byte) in healthRequest.enumerated() {
                    if socket.state() == .closed { return (index, ContinuousClock.now - start) }
                    try? socket.send(String(byte))
                    pauseThread(for: .milliseconds(300))
                }
                return (healthRequest.count, socket.waitUntilClosedBlocking(within: .zero).map { _ in ContinuousClock.now - start })
            }
            async let fast: (answer: String, took: Duration) = onOwnThread {
                // The same head in two pieces, 200 ms apart.
                let socket = try LoopbackSocket(port: port)
                let start = ContinuousClock.now
                try socket.send(String(healthRequest.prefix(20)))
                pauseThread(for: .milliseconds(200))
                try? socket.send(String(healthRequest.dropFirst(20)))
                let took = ContinuousClock.now - start
                return ((try? socket.responseBlocking()) ?? "no answer: \(socket.received.count) bytes", took)
            }
            let (sent, closedAfter) = try await slow
            let closed = try #require(closedAfter, "the slow client was never cut")
            #expect(sent < healthRequest.count, "the slow client sent its whole head (\(sent) bytes)")
            #expect(closed >= .milliseconds(5900), "cut after \(seconds(closed)), before the 6 s header timeout")
            #expect(closed <= .seconds(6) + lateness, "cut after \(seconds(closed)), long after the 6 s header timeout")
            let (answer, took) = try await fast
            #expect(took < .seconds(6), "the machine is too busy: sending the head in two pieces took \(seconds(took))")
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "the head sent in \(seconds(took)) got: \(answer)")
            #expect(answer.hasSuffix(#"{"status":"ok"}"#))
        }
    }

    @Test("a connection that says nothing at all is closed at the header timeout")
    func silentConnection() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(1), idleTimeout: .seconds(30), bodyTimeout: .seconds(30))
        try await withServedProvider(limits) { port in
            let (closedAfter, received) = try await onOwnThread {
                let socket = try LoopbackSocket(port: port)
                return (socket.waitUntilClosedBlocking(within: .seconds(1) + lateness + .seconds(2)), socket.received.count)
            }
            let closed = try #require(closedAfter)
            #expect(closed >= .milliseconds(900) && closed <= .seconds(1) + lateness, "closed after \(seconds(closed))")
            #expect(received == 0, "the server sent \(received) bytes")
        }
    }

    @Test("an idle keep-alive connection is closed after the idle timeout; one that keeps making requests is not")
    func idleKeepAlive() async throws {
        let limits = ConnectionLimits(headerTimeout: .seconds(10), idleTimeout: .seconds(2), bodyTimeout: .seconds(10))
        try await withServedProvider(limits) { port in
            async let idle: (answer: String, closedAfter: Duration?) = onOwnThread {
                let socket = try LoopbackSocket(port: port)
                let answer = try socket.exchangeBlocking(healthRequest)
                return (answer, socket.waitUntilClosedBlocking(within: .seconds(2) + lateness + .seconds(2)))
            }
            async let busy: [String] = onOwnThread {
                // A request every 500 ms for 4 s: twice the idle timeout in all, a quarter of it between requests.
                let socket = try LoopbackSocket(port: port)
                var failures: [String] = []
                for round in 1...8 {
                    let answer = try socket.exchangeBlocking(healthRequest)
                    if !answer.hasPrefix("HTTP/1.1 200 OK") { failures.append("request \(round): \(answer)") }
                    pauseThread(for: .milliseconds(500))
                    if socket.state() != .open { failures.append("closed after request \(round), 500 ms after its answer") }
                }
                return failures
            }
            let (answer, closedAfter) = try await idle
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
            let closed = try #require(closedAfter, "the idle connection was never closed")
            #expect(closed >= .milliseconds(1900) && closed <= .seconds(2) + lateness, "closed \(seconds(closed)) after its answer")
            #expect(try await busy == [])
        }
    }

    @Test("pipelined requests sent in one write are all answered, and the idle timeout starts after the last answer")
    func pipelinedRequests() async throws {
        // The header timeout is long: this test is about pipelining and the idle timeout, and under load (the
        // suite beside two busy processes) the first answer once took longer than 10 s.
        let limits = ConnectionLimits(headerTimeout: .seconds(120), idleTimeout: .seconds(1), bodyTimeout: .seconds(10))
        try await withServedProvider(limits) { port in
            let (answers, closedAfter) = try await onOwnThread {
                let socket = try LoopbackSocket(port: port)
                try socket.send(String(repeating: healthRequest, count: 3))
                let answers = try (1...3).map { _ in try socket.responseBlocking(within: .seconds(90)) }
                return (answers, socket.waitUntilClosedBlocking(within: .seconds(1) + lateness + .seconds(2)))
            }
            for (round, answer) in answers.enumerated() {
                #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "answer \(round + 1): \(answer)")
            }
            let closed = try #require(closedAfter)
            #expect(closed >= .milliseconds(900) && closed <= .seconds(1) + lateness, "closed \(seconds(closed)) after the last answer")
        }
    }

    @Test("a started body that stalls is cut at the body timeout, even when it trickles; a body within it is answered")
    func stalledBody() async throws {
        // 8 s, so that the prompt client's 0.5 s body has room on a machine busy with the whole suite and more.
        let limits = ConnectionLimits(headerTimeout: .seconds(10), idleTimeout: .seconds(10), bodyTimeout: .seconds(8))
        let body = "app_id=\(TestFixtures.appID)&id_token=" + String(repeating: "x", count: 60)
        let head =
            "POST /platform/uninstall HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        try await withServedProvider(limits) { port in
            async let stalled: Duration? = onOwnThread {
                // Half the body at once, then a byte every 400 ms: the rest would take 16 s, past the 8 s timeout.
                let socket = try LoopbackSocket(port: port)
                try socket.send(head + body.prefix(body.count / 2))
                let start = ContinuousClock.now
                for byte in body.dropFirst(body.count / 2) {
                    if socket.state() == .closed { return ContinuousClock.now - start }
                    try? socket.send(String(byte))
                    pauseThread(for: .milliseconds(400))
                }
                return nil
            }
            async let prompt: (answer: String, took: Duration) = onOwnThread {
                // The body in five pieces, 100 ms apart.
                let socket = try LoopbackSocket(port: port)
                let start = ContinuousClock.now
                try socket.send(head)
                for piece in stride(from: 0, to: body.count, by: 20) {
                    pauseThread(for: .milliseconds(100))
                    try socket.send(String(body.dropFirst(piece).prefix(20)))
                }
                let took = ContinuousClock.now - start
                return ((try? socket.responseBlocking()) ?? "no answer: \(socket.received.count) bytes", took)
            }
            let closed = try #require(try await stalled, "the stalled body was never cut")
            #expect(closed >= .milliseconds(7900) && closed <= .seconds(8) + lateness, "cut \(seconds(closed)) after its head")
            // The made-up ID token is refused: what matters is that the provider read the whole body and answered.
            let (answer, took) = try await prompt
            #expect(took < .seconds(8), "the machine is too busy: sending the body in five pieces took \(seconds(took))")
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "the body sent in \(seconds(took)) got: \(answer)")
        }
    }

    /// The refusals the "Refused N connection(s) since the last report" lines count, together.
    static func refusalsCounted(in lines: [String]) -> Int {
        lines.compactMap { line -> Int? in
            guard let range = line.range(of: "Refused ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }.reduce(0, +)
    }

    @Test(
        "with a maximum of 3 connections, a 4th from the same address is closed at once while 3 are open (its share, which the maximum caps), and accepted again once one closes; refusals are logged once per interval with their count"
    )
    func maximumConnections() async throws {
        let logs = CapturedLogs()
        var logger = Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) })
        logger.logLevel = .info
        var limits = ConnectionLimits(maximumConnections: 3)
        // Long enough that the refusals below fall within one interval even when the whole suite loads the
        // machine (at 2 s, a full run once took longer than that between them and logged two lines).
        limits.refusalLogInterval = .seconds(8)
        let interval = limits.refusalLogInterval
        let refusalLines: @Sendable () -> [String] = {
            logs.records.withLock { $0.filter { $0.hasPrefix("warning Refused") } }
        }
        try await withServedProvider(limits, logger: logger) { port in
            // Each of the three answers a request, so the provider has surely counted it.
            let open = try (1...3).map { _ in try LoopbackSocket(port: port) }
            let (fourthClosedAfter, fourthReceived, admittedAnswers, beforeFirstRefusal) = try await onOwnThread {
                // Generous waits for answers: they bound a liveness check, not a speed (beside busy processes
                // an answer from this in-process provider once took more than 10 s).
                let firstAnswers = try open.map { try $0.exchangeBlocking(healthRequest, within: .seconds(60)) }
                // Before the first refusal, so before its line: the interval runs from a moment after this.
                let beforeFirstRefusal = ContinuousClock.now
                let fourth = try LoopbackSocket(port: port)
                try? fourth.send(healthRequest)
                let closedAfter = fourth.waitUntilClosedBlocking(within: .seconds(3))
                let laterAnswers = try open.map { try $0.exchangeBlocking(healthRequest, within: .seconds(60)) }
                return (closedAfter, fourth.received.count, firstAnswers + laterAnswers, beforeFirstRefusal)
            }
            let closed = try #require(fourthClosedAfter, "the 4th connection stayed open")
            #expect(closed < .milliseconds(1500), "the 4th connection was closed only after \(seconds(closed))")
            #expect(fourthReceived == 0, "the 4th connection got an answer")
            for answer in admittedAnswers {
                #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "an admitted connection did not answer: \(answer)")
            }
            #expect(refusalLines().count == 1)
            #expect(
                refusalLines().first?.contains("Refused 1 connection since the last report: their client address held 3, its share") == true,
                "\(refusalLines())")

            // Two more within the interval: no line now, one line with both when the interval has passed.
            let refusedStayedOpen = try await onOwnThread {
                try (1...2).filter { _ in try LoopbackSocket(port: port).waitUntilClosedBlocking(within: .seconds(3)) == nil }.count
            }
            #expect(refusedStayedOpen == 0, "a connection over the maximum stayed open")
            // Whether the two came within the interval is known only by the clock: on a starved machine they can
            // come after it, and then a line for them is right. Within it (the usual case), no second line yet,
            // and one with both once it has passed; either way every refusal is counted in exactly one line.
            let withinInterval = ContinuousClock.now - beforeFirstRefusal < interval
            if withinInterval { #expect(refusalLines().count == 1, "a second line within the interval: \(refusalLines())") }
            for _ in 0..<300 where Self.refusalsCounted(in: refusalLines()) < 3 { try await Task.sleep(for: .milliseconds(100)) }
            #expect(Self.refusalsCounted(in: refusalLines()) == 3, "\(refusalLines())")
            if withinInterval {
                #expect(refusalLines().count == 2)
                #expect(refusalLines().last?.contains("Refused 2 connections since the last report") == true, "\(refusalLines())")
            }

            // One closes: a new connection is admitted (once the provider has seen the close).
            open[0].release()
            let answer: String? = try await onOwnThread {
                // Each try may wait long for its answer: under a full suite beside busy processes an answer
                // once took longer than 2 s (issue #30: the suite must hold under load).
                for _ in 0..<30 {
                    if let answer = try? LoopbackSocket(port: port).exchangeBlocking(healthRequest, within: .seconds(10)) { return answer }
                    pauseThread(for: .milliseconds(100))
                }
                return nil
            }
            #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true, "no connection was admitted after one of the three closed")
        }
    }
}
