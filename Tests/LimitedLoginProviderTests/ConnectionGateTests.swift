import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import LimitedLoginProvider

/// Issue #59 item 4: at the maximum, an idle connection never keeps a new client out. The gate is driven with
/// in-memory channels (its collaborators); the live suites (FairConnectionTests) prove it on real sockets.
@Suite("Connection gate: idle connections make room at the maximum")
struct ConnectionGateTests {
    /// An open in-memory channel whose peer is `address`.
    static func channel(from address: String) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        // Connecting sets the peer to the address connected to: the client's is set after.
        channel.remoteAddress = try SocketAddress(ipAddress: address, port: 40000)
        return channel
    }

    static func gate(maximum: Int, perAddress: Int, logs: CapturedLogs = CapturedLogs()) -> ConnectionGate {
        var limits = ConnectionLimits(maximumConnections: maximum, maximumConnectionsPerAddress: perAddress)
        limits.refusalLogInterval = .seconds(600)
        var logger = Logger(label: "gate", factory: { _ in CapturingLogHandler(logs: logs) })
        logger.logLevel = .info
        return ConnectionGate(limits: limits, logger: logger)
    }

    @Test("at the maximum the connection idle longest is closed and the new one admitted; one with a request in progress is never chosen")
    func longestIdleMakesRoom() throws {
        let logs = CapturedLogs()
        let gate = Self.gate(maximum: 3, perAddress: 3, logs: logs)
        let held = try ["192.0.2.1", "192.0.2.2", "192.0.2.3"].map { try Self.channel(from: $0) }
        for channel in held { #expect(gate.admit(channel)) }
        // The first is busy (a request on it), the second waited longest since its answer, the third answered last.
        gate.requestBegan(on: ObjectIdentifier(held[0]))
        gate.answered(on: ObjectIdentifier(held[1]))
        gate.answered(on: ObjectIdentifier(held[2]))
        let newcomer = try Self.channel(from: "192.0.2.9")
        #expect(gate.admit(newcomer))
        #expect(held[0].isActive, "a connection with a request in progress is not closed")
        #expect(!held[1].isActive, "the longest-idle connection was closed to make room")
        #expect(held[2].isActive)
        held[1].embeddedEventLoop.run()  // the close's callbacks, as its event loop would run them
        #expect(gate.openConnections == 3, "the closed one no longer counts")
        #expect(logs.records.withLock { $0.contains { $0.contains("Closed 1 idle connection to admit new ones since the last report") } })
    }

    @Test("at the maximum with no idle connection, a new one is refused; an address at its share is refused without closing anyone's")
    func refusals() throws {
        let logs = CapturedLogs()
        let gate = Self.gate(maximum: 2, perAddress: 1, logs: logs)
        let first = try Self.channel(from: "192.0.2.1")
        let second = try Self.channel(from: "192.0.2.2")
        #expect(gate.admit(first) && gate.admit(second))
        #expect(!gate.admit(try Self.channel(from: "192.0.2.1")), "its address holds its share")
        #expect(first.isActive && second.isActive, "a refusal for the share closes nobody's connection")
        gate.requestBegan(on: ObjectIdentifier(first))
        gate.requestBegan(on: ObjectIdentifier(second))
        #expect(!gate.admit(try Self.channel(from: "192.0.2.3")), "no idle connection to make room")
        #expect(first.isActive && second.isActive)
        let lines = logs.records.withLock { $0.filter { $0.hasPrefix("warning Refused") } }
        #expect(lines.first?.contains("their client address held 1, its share") == true, "\(lines)")
        // A request answered: that connection is idle again, and makes room.
        gate.answered(on: ObjectIdentifier(second))
        #expect(gate.admit(try Self.channel(from: "192.0.2.3")))
        #expect(first.isActive && !second.isActive)
    }
}
