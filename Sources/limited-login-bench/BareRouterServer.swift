import HTTPTypes
import Hummingbird
import HummingbirdCore
import LimitedLoginProvider
@_spi(Benchmarks) import LimitedLoginProvider
import Logging
import NIOCore

/// The baseline of the `http` benchmark: a Hummingbird 2 router with nothing but one route per path,
/// answering with fixed bytes and headers (the ones the provider sent for that path, and the same server
/// name), on the same event loops as the provider in the same process.
///
/// With `onEventLoops`, each connection's task prefers the connection's event loop as its executor, as the
/// provider's do (`EventLoopTaskExecutor`): the same router without Hummingbird's hops between the event
/// loops and Swift's global pool, which isolates what the provider's own code costs.
enum BareRouterServer {
    struct Document {
        var path: String
        var body: [UInt8]
        var headers: HTTPFields
    }

    /// Serves `documents` on a loopback port for the length of `body`.
    static func with(
        serving documents: [Document], onEventLoops: Bool = false, _ body: @Sendable (_ port: Int) async throws -> Void
    ) async throws {
        let router = Router()
        for document in documents {
            let bytes = ByteBuffer(bytes: document.body)
            let headers = document.headers
            router.get(RouterPath(document.path)) { _, _ in Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes)) }
        }
        try await serveOnLoopback(
            responder: router.buildResponder(),
            server: onEventLoops ? HTTPServerBuilder { responder in EventLoopHTTP1Channel(http1: HTTP1Channel(responder: responder)) } : .http1(),
            serverName: "limited-login",
            body
        )
    }
}
