import Hummingbird
import LimitedLoginTestSupport
import Logging
import Testing

@testable import LimitedLoginProvider

/// The client address that sign-in limits count by comes from the request's own connection: set once per
/// connection (``BoundedHTTP1Channel``), it must never be another connection's, nor be missing for a later
/// request on a kept-alive connection.
@Suite("Client address: each request's own connection")
struct ClientAddressTests {
    @Test("requests on two kept-alive connections from different addresses, interleaved, each see their own")
    func eachRequestSeesItsConnection() async throws {
        let router = Router()
        router.get("/_test/address") { _, _ in ClientAddress.current ?? "none" }
        try await withLoopbackServer(
            responder: router.buildResponder(), server: .http1(limits: ConnectionLimits(), logger: Logger(label: "test"))
        ) { port in
            let first = try LoopbackSocket(port: port, from: "127.0.0.2")
            let second = try LoopbackSocket(port: port, from: "127.0.0.3")
            defer {
                first.release()
                second.release()
            }
            let request = "GET /_test/address HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            var answers: [String] = []
            for socket in [first, second, first, second, first] {
                let response = try await socket.exchange(request)
                #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
                answers.append(String(response.split(separator: "\r\n\r\n", maxSplits: 1).last ?? ""))
            }
            #expect(answers == ["127.0.0.2", "127.0.0.3", "127.0.0.2", "127.0.0.3", "127.0.0.2"])
        }
    }

    @Test("the provider's router alone, without the provider's connections, has no client address")
    func noConnectionNoAddress() async throws {
        let router = Router()
        router.get("/_test/address") { _, _ in ClientAddress.current ?? "none" }
        // Hummingbird's own HTTP/1.1 channel: the address is the provider's connections' to give.
        try await withLoopbackServer(responder: router.buildResponder(), server: .http1()) { port in
            let socket = try LoopbackSocket(port: port)
            defer { socket.release() }
            let response = try await socket.exchange("GET /_test/address HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(response.hasSuffix("\r\n\r\nnone"), "\(response)")
        }
    }
}
