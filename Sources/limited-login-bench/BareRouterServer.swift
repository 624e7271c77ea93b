import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
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
struct BareRouterServer {
    struct Document {
        var path: String
        var body: [UInt8]
        var headers: HTTPFields
    }

    let port: Int
    private let server: Task<Void, any Error>

    static func start(serving documents: [Document], onEventLoops: Bool = false) async throws -> BareRouterServer {
        let router = Router()
        for document in documents {
            let body = ByteBuffer(bytes: document.body), headers = document.headers
            router.get(RouterPath(document.path)) { _, _ in Response(status: .ok, headers: headers, body: .init(byteBuffer: body)) }
        }
        let (started, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router,
            server: onEventLoops ? HTTPServerBuilder { responder in EventLoopHTTP1Channel(http1: HTTP1Channel(responder: responder)) } : .http1(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "limited-login"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }
        )
        let server = Task { try await application.runService(gracefulShutdownSignals: []) }
        var iterator = started.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw BenchmarkError.serverDidNotStart }
        return BareRouterServer(port: port, server: server)
    }

    func stop() async {
        server.cancel()
        _ = await server.result
    }
}

/// Hummingbird's HTTP/1.1 channel, each connection's task preferring the connection's event loop.
private struct EventLoopHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await http1.handle(value: value, logger: logger)
        }
    }
}
