import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The baseline of the `http` benchmark: a Hummingbird 2 router with nothing but one route per path,
/// answering with fixed bytes and headers (the ones the provider sent for that path, and the same server
/// name), on the same event loops as the provider in the same process.
struct BareRouterServer {
    struct Document {
        var path: String
        var body: [UInt8]
        var headers: HTTPFields
    }

    let port: Int
    private let server: Task<Void, any Error>

    static func start(serving documents: [Document]) async throws -> BareRouterServer {
        let router = Router()
        for document in documents {
            let body = ByteBuffer(bytes: document.body), headers = document.headers
            router.get(RouterPath(document.path)) { _, _ in Response(status: .ok, headers: headers, body: .init(byteBuffer: body)) }
        }
        let (started, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router,
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
