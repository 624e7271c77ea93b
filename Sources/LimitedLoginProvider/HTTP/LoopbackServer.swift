import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

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
