import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
@_spi(Benchmarks) @testable import LimitedLoginProvider
import NIOCore
import LimitedLoginTestSupport
import NIOPosix
import Testing

/// Issue #17: a connection's task runs on the connection's event loop, and stays there across suspensions.
@Suite("Connections' tasks on their event loops")
struct EventLoopTaskExecutorTests {
    @Test("a task preferring the executor runs on that event loop, also after resuming from other threads")
    func staysOnItsLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loop = group.next()
        let elsewhere = group.any() === loop ? group.next() : group.any()
        let executor = EventLoopTaskExecutor(loop)
        let seen = try await withTaskExecutorPreference(executor) { () async throws -> [Bool] in
            var seen = [loop.inEventLoop]
            // A timer, a future completed on another event loop, and NIO's thread pool each resume the task
            // from somewhere else.
            try await Task.sleep(for: .milliseconds(5))
            seen.append(loop.inEventLoop)
            _ = try await elsewhere.submit { 1 }.get()
            seen.append(loop.inEventLoop)
            _ = try await NIOThreadPool.singleton.runIfActive { 2 }
            seen.append(loop.inEventLoop)
            // Child tasks inherit the preference (an unstructured `Task {}` would not: SE-0417).
            async let child = loop.inEventLoop
            seen.append(await child)
            return seen
        }
        #expect(seen == [true, true, true, true, true])
        #expect(!loop.inEventLoop, "the test itself does not run there")
        try await group.shutdownGracefully()
    }

    @Test("the provider's server answers each request on the event loop of the request's connection")
    func providerRequestsOnTheirLoop() async throws {
        let provider = try await LimitedLoginProvider.prepare(
            ProviderConfiguration(port: 0, store: .sqliteMemory, seedsDemoData: false), logger: Logger(label: "test")
        )
        let router = provider.router()
        // A route that says whether it runs on its connection's event loop; served as `application()`
        // serves the provider's router (the channel as a task-local value, the bounded HTTP/1 channel).
        router.get("/_test/loop") { _, _ in
            ClientAddress.channel?.eventLoop.inEventLoop == true ? "on its loop" : "elsewhere"
        }
        try await withLoopbackServer(
            responder: ClientAddressResponder(inner: router.buildResponder()),
            server: .http1(limits: ConnectionLimits(), logger: Logger(label: "test"))
        ) { port in
            for _ in 0..<4 {
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/_test/loop"), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1024)
                #expect(String(buffer: body) == "on its loop")
            }
        }
        await provider.store.close()
    }
}
