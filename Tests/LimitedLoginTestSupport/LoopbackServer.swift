import Hummingbird
import HummingbirdCore
import LimitedLoginProvider

/// Runs a Hummingbird router on 127.0.0.1 on a port the system picks, for the length of `body`.
public func withLoopbackServer<Value: Sendable>(
    _ router: Router<BasicRequestContext>,
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value {
    try await serveOnLoopback(responder: router.buildResponder(), serverName: "test", body)
}

/// Runs `responder` on 127.0.0.1 on a port the system picks, with `server`'s channel (Hummingbird's
/// HTTP/1.1 unless given) and `serverName`, for the length of `body` (``serveOnLoopback``).
public func withLoopbackServer<Responder: HTTPResponder, Value: Sendable>(
    responder: Responder,
    server: HTTPServerBuilder = .http1(),
    serverName: String = "test",
    _ body: @Sendable (_ port: Int) async throws -> Value
) async throws -> Value where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    try await serveOnLoopback(responder: responder, server: server, serverName: serverName, body)
}
