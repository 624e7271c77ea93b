import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP listener on 127.0.0.1 (a port the system picks) that hands each request to a
/// ``LoopbackMailbox`` and answers with its page. Bound to loopback only: nothing off the machine can
/// reach it.
struct LoopbackListener: Sendable {
    let channel: any Channel
    let mailbox: LoopbackMailbox

    var port: Int { mailbox.port }

    static func open(callbackPath: String) async throws -> LoopbackListener {
        let mailbox = LoopbackMailbox(callbackPath: callbackPath)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(LoopbackHTTPHandler(mailbox: mailbox))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        mailbox.port = channel.localAddress?.port ?? 0
        return LoopbackListener(channel: channel, mailbox: mailbox)
    }

    func close() async {
        try? await channel.close()
    }
}

/// Reads one request and answers it from the mailbox, then closes the connection.
final class LoopbackHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let mailbox: LoopbackMailbox
    private var head: HTTPRequestHead?

    init(mailbox: LoopbackMailbox) {
        self.mailbox = mailbox
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let reply = mailbox.handle(method: head.method.rawValue, uri: head.uri)
            let body = ByteBuffer(string: head.method == .HEAD ? "" : reply.html)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
            headers.add(name: "Content-Length", value: String(reply.html.utf8.count))
            headers.add(name: "Cache-Control", value: "no-store")
            headers.add(name: "Referrer-Policy", value: "no-referrer")
            headers.add(name: "X-Content-Type-Options", value: "nosniff")
            headers.add(name: "Connection", value: "close")
            let scripts = reply.scriptNonce.map { "script-src 'nonce-\($0)'" } ?? "script-src 'none'"
            headers.add(
                name: "Content-Security-Policy",
                value: "default-src 'none'; \(scripts); style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
            let status = HTTPResponseStatus(statusCode: reply.status)
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            let mailbox = self.mailbox
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if reply.deliversAnswer { mailbox.answerPageSent() }
                context.close(promise: nil)
            }
        }
    }
}
