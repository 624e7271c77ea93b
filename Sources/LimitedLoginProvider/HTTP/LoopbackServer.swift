import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `responder` on 127.0.0.1 (or `host`) on a port the system picks, with `server`'s channel
/// (Hummingbird's HTTP/1.1 unless given) and `serverName`, for the length of `body`; the server is stopped
/// afterwards, also when `body` throws. For small servers beside the provider: the audit's attacker key set,
/// the benchmarks' baselines, the tests' backends. An address it cannot bind throws
/// ``LoopbackServerError/cannotBind(_:)`` with the system's reason.
package func serveOnLoopback<Responder: HTTPResponder, Value: Sendable>(
    responder: Responder,
    server: HTTPServerBuilder = .http1(),
    serverName: String = "limited-login",
    host: String = "127.0.0.1",
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
        responder: responder,
        server: server,
        configuration: .init(address: .hostname(host, port: 0), serverName: serverName),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        },
        logger: Logger(label: "loopback-server", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    // A server that fails to start (an address it cannot bind) ends the stream, so the wait below ends too.
    let server = Task {
        defer { continuation.finish() }
        try await app.runService(gracefulShutdownSignals: [])
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
        server.cancel()
        if case .failure(let error) = await server.result { throw LoopbackServerError.cannotBind(String(describing: error)) }
        throw LoopbackServerError.didNotStart
    }
    do {
        let value = try await body(port)
        server.cancel()
        _ = await server.result
        return value
    } catch {
        server.cancel()
        _ = await server.result
        throw error
    }
}

/// Why ``serveOnLoopback(responder:server:serverName:_:)`` could not serve.
package enum LoopbackServerError: Error {
    case didNotStart
    /// The address could not be bound; the system's reason.
    case cannotBind(String)
}

/// A port on 127.0.0.1 that nothing listens on now (bound, read and closed), for a process that must be
/// given its port before it starts: the start benchmark's `serve`.
/// Nil when none could be had.
package func freeLoopbackPort() -> Int? {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}
