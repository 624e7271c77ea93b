import Foundation
import LimitedLoginTestSupport
import Synchronization
import Testing

@testable import LimitedLoginProvider

#if canImport(Glibc)
import Glibc
#endif

/// What a provider's start does beside its main work (docs/PERFORMANCE.md, "Start"): the rehearsal of the
/// server's start, and the health check run while the port is bound.
struct StartWarmUpTests {
    @Test("the rehearsal answers its one request with the provider's server types, then nothing listens on its port")
    func rehearsalStops() async throws {
        // A start gives its rehearsal a second; a test among hundreds on a busy machine, a minute.
        let rehearsed = try #require(await StartWarmUp.rehearseServer(answerWithin: 60))
        #expect(rehearsed.statusLine == "HTTP/1.1 204 No Content")
        #expect(rehearsed.port > 0)
        #expect {
            _ = try LoopbackSocket(port: rehearsed.port)
        } throws: { error in
            guard case LoopbackSocket.Failure.connect(let code) = error else { return false }
            return code == ECONNREFUSED
        }
    }

    @Test("requests that ask while a health check runs wait for that one check, and share its verdict")
    func concurrentAsksShareOneCheck() async throws {
        let recent = RecentHealthCheck()
        let checks = CheckCount()
        let verdicts = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await recent.problem {
                        checks.value.add(1, ordering: .relaxed)
                        try? await Task.sleep(for: .milliseconds(200))
                        return "the store does not answer"
                    }
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(verdicts == Array(repeating: "the store does not answer", count: 8))
        #expect(checks.value.load(ordering: .relaxed) == 1)
    }

    @Test("a verdict is reused within the interval and checked again after it")
    func verdictReuse() async throws {
        let recent = RecentHealthCheck()
        let checks = CheckCount()
        let check: @Sendable () async -> String? = {
            checks.value.add(1, ordering: .relaxed)
            return nil
        }
        #expect(await recent.problem(checkingWith: check) == nil)
        #expect(await recent.problem(checkingWith: check) == nil)
        #expect(checks.value.load(ordering: .relaxed) == 1)
        try await Task.sleep(for: .nanoseconds(Int64(RecentHealthCheck.reuseInterval) + 100_000_000))
        #expect(await recent.problem(checkingWith: check) == nil)
        #expect(checks.value.load(ordering: .relaxed) == 2)
    }
}

/// How many times a health check ran.
private final class CheckCount: Sendable {
    let value = Atomic<Int>(0)
}
