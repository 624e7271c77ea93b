import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Runs a Hummingbird router on 127.0.0.1 on a port the system picks, for the length of `body`.
public func withLoopbackServer<Value: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value {
    try await withLoopbackServer(responder: router.buildResponder(), body)
}

/// Runs `responder` on 127.0.0.1 on a port the system picks, with `server`'s channel (Hummingbird's
/// HTTP/1.1 unless given) and `serverName`, for the length of `body`; the server is stopped afterwards, also
/// when `body` throws.
public func withLoopbackServer<Responder: HTTPResponder, Value: Sendable>(
    responder: Responder,
    server: HTTPServerBuilder = .http1(),
    serverName: String = "test",
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
        logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() })
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

public enum LoopbackServerError: Error {
    case didNotStart
}
