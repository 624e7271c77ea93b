import AsyncHTTPClient
import Foundation
import Hummingbird
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

@_spi(Benchmarks) @testable import LimitedLoginProvider

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
            responder: router.buildResponder(),
            server: .http1(limits: ConnectionLimits(), logger: Logger(label: "test"))
        ) { port in
            for _ in 0..<4 {
                let response = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)/_test/loop"), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1024)
                #expect(String(buffer: body) == "on its loop")
            }
        }
        await provider.store.close()
    }

    @Test("a password hash and a key generation run off the connection's loop, which serves other work meanwhile")
    func longWorkOffTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let executor = EventLoopTaskExecutor(loop)
        // An imported hash with 400,000 rounds: 20 times the default, as a fixture may bring.
        let stored = PasswordHasher.hash("correct horse", rounds: 400_000)
        let progress = WorkProgress()
        let hash = Task.detached {
            await withTaskExecutorPreference(executor) {
                await OffEventLoop.run {
                    progress.state.withLock { $0.started = true }
                    defer { progress.state.withLock { $0.finished = true } }
                    // The work holds on until the loop has served other work (at most 60 s): off the loop that
                    // happens at once, however busy the machine; on the loop it could not, and the job below
                    // would find the work finished. No race with the scheduler decides the outcome.
                    let deadline = ContinuousClock.now + .seconds(60)
                    while !progress.state.withLock({ $0.loopAnswered }), ContinuousClock.now < deadline { usleep(1000) }
                    return PasswordHasher.verify("correct horse", against: stored)
                }
            }
        }
        let (answeredDuringHash, results) = await withTaskExecutorPreference(executor) { () async -> (Bool, [Bool]) in
            while !progress.state.withLock({ $0.started }) { try? await Task.sleep(for: .milliseconds(1)) }
            // Had the hash run on the loop, this job would wait for it, and find it finished.
            let answered =
                (try? await loop.submit {
                    progress.state.withLock { state in
                        state.loopAnswered = true
                        return !state.finished
                    }
                }.get()) ?? false
            var results = [loop.inEventLoop]
            results.append(await OffEventLoop.run { !loop.inEventLoop && MultiThreadedEventLoopGroup.currentEventLoop == nil })
            results.append(loop.inEventLoop)
            results.append(await OffEventLoop.run { PasswordHasher.verify("wrong horse", against: stored) } == false)
            let key = try? await OffEventLoop.run { () throws(RSAKeyError) -> RS256PrivateKey in try RS256PrivateKey.generate(bits: 2048) }
            results.append(key != nil)
            results.append(loop.inEventLoop)
            return (answered, results)
        }
        #expect(answeredDuringHash, "the loop answered while the hash was being checked")
        #expect(
            results == [true, true, true, true, true, true], "on the loop, off it for the work, back on it; a wrong password refused; a key made")
        #expect(await hash.value, "the right password matched")
        #expect(progress.state.withLock { $0.finished })
        try await group.shutdownGracefully()
    }
}

/// Whether the work under test has started and finished, seen from any thread.
private final class WorkProgress: Sendable {
    let state = Mutex((started: false, finished: false, loopAnswered: false))
}
