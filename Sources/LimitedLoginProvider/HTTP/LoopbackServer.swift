import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `responder` on 127.0.0.1 on a port the system picks, with `server`'s channel (Hummingbird's
/// HTTP/1.1 unless given) and `serverName`, for the length of `body`; the server is stopped afterwards, also
/// when `body` throws. For small servers beside the provider: the audit's attacker key set, the benchmarks'
/// baselines, the tests' backends.
package func serveOnLoopback<Responder: HTTPResponder, Value: Sendable>(
    responder: Responder,
    server: HTTPServerBuilder = .http1(),
    serverName: String = "limited-login",
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
        responder: responder,
        server: server,
        configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: serverName),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        },
        logger: Logger(label: "loopback-server", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
        server.cancel()
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
