import Foundation
import LimitedLoginProvider

#if canImport(Glibc)
import Glibc
#endif

/// `idle-memory`: how much memory idle connections take from the provider, and how much of it the provider
/// gives back once they close (issue #36: after 1,000 idle connections closed, 31 % of what they took was
/// kept). The provider runs in this process with memory return on (as `serve` runs it), and this process
/// opens `connections` keep-alive connections from 127.0.0.1, each answered one `/health` and then left idle;
/// then closes them all and waits for the provider's trim. Three rounds, to see whether what is kept grows.
/// The clients hold a descriptor each and nothing else, so the resident size measured is the provider's.
struct IdleConnectionMemoryBenchmark {
    var connections = 1000
    var rounds = 3

    func run() async throws {
        ReturnedMemory.enable()
        let limits = ConnectionLimits(maximumConnections: connections * 2, maximumConnectionsPerAddress: connections * 2)
        let node = try await BenchProvider.start(store: .sqliteMemory, connectionLimits: limits)
        defer { Task { await node.stop() } }
        let port = node.port
        for _ in 0..<50 { try Self.idleConnection(port: port).map { _ = close($0) } }
        try await Task.sleep(for: .seconds(2))
        let baseline = MemoryBenchmark.residentMegabytes()
        print(
            String(
                format: "idle-memory: %d idle keep-alive connections to an in-process provider on :memory:, %d rounds; RSS at rest %.1f MB",
                connections, rounds, baseline))
        for round in 1...rounds {
            var descriptors: [Int32] = []
            for _ in 0..<connections { if let descriptor = try Self.idleConnection(port: port) { descriptors.append(descriptor) } }
            let open = MemoryBenchmark.residentMegabytes()
            for descriptor in descriptors { close(descriptor) }
            // The provider trims one second after a wave of closes; wait for that and a margin.
            try await Task.sleep(for: .seconds(3))
            let after = MemoryBenchmark.residentMegabytes()
            let taken = open - baseline
            let kept = after - baseline
            print(
                String(
                    format:
                        "  round %d: %d connections open: RSS %.1f MB (+%.1f MB, %.1f KB each); all closed: %.1f MB (kept %.1f MB, %.0f %% of what they took)",
                    round, descriptors.count, open, taken, taken * 1024 / Double(max(1, descriptors.count)), after, kept,
                    taken > 0 ? kept / taken * 100 : 0
                ))
        }
    }

    /// A connection that asked for `/health` once, read the answer, and stays open; its descriptor (nil if
    /// the provider refused it). Not a ``RawHTTPConnection``: its 64 KiB buffer would count in this process's
    /// resident size.
    static func idleConnection(port: Int) throws -> Int32? {
        let descriptor = try RawHTTPConnection.connectLoopback(port: port)
        let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            close(descriptor)
            return nil
        }
        // The answer is small: headers and `{"status":"ok"}`; read until the body's closing brace.
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        while !answer.contains(UInt8(ascii: "}")) {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else {
                close(descriptor)
                return nil
            }
            answer += chunk[0..<count]
        }
        return descriptor
    }
}
