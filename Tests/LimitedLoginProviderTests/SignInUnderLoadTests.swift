import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #36 item 1: the sign-in limits count failures, after the check. Many correct sign-ins at once from
/// one address (parallel CI workers, people behind one proxy) are never refused; a burst of wrong ones is
/// still held to the limit. Real sockets, one per person; the assertions count answers, never time.
@Suite("Sign-in under load: concurrent correct sign-ins are never refused")
struct SignInUnderLoadTests {
    /// One person on a connection of their own: the dialog's sign-in page, then the form with a password.
    struct Person: Sendable {
        let client: TestClient
        let cookie: String
        let page: Page

        static func open(port: Int) async throws -> Person {
            // A liveness bound only: the sign-ins wait their turn at the gate, and a busy machine has taken more
            // than the client's default 15 s over one of them (a read timeout, not a refusal).
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(600)))
            client.connect()
            let response = try await client.get(dialogPath())
            let body = String(buffer: response.body ?? ByteBuffer())
            let cookie = response.headers[values: .setCookie].map { String($0.split(separator: ";", maxSplits: 1)[0]) }.joined(separator: "; ")
            #expect(response.status == .ok)
            return Person(client: client, cookie: cookie, page: Page(status: response.status, headers: response.headers, body: body))
        }

        func signIn(email: String, password: String) async throws -> HTTPResponse.Status {
            var form = FormParameters()
            form.append("csrf_token", try #require(page.hiddenInput("csrf_token")))
            form.append("request", try #require(page.hiddenInput("request")))
            form.append("email", email)
            form.append("pass", password)
            let headers: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            return try await client.post(DialogController.signInPath, headers: headers, body: ByteBuffer(string: form.encoded)).status
        }
    }

    /// Opens `count` people's pages, then sends all their sign-ins at once; the statuses answered.
    static func signInAtOnce(port: Int, count: Int, email: String, password: String) async throws -> [HTTPResponse.Status] {
        let people = try await withThrowingTaskGroup(of: Person.self) { group in
            for _ in 0..<count { group.addTask { try await Person.open(port: port) } }
            return try await group.reduce(into: [Person]()) { $0.append($1) }
        }
        defer { Task { for person in people { try? await person.client.shutdown() } } }
        return try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for person in people { group.addTask { try await person.signIn(email: email, password: password) } }
            return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
        }
    }

    @Test("64 correct sign-ins at once from one address: 64 × 303; then 40 wrong ones at once: 10 checked (401), 30 refused (429)")
    func concurrentCorrectThenWrong() async throws {
        var configuration = TestFixtures.configuration()
        configuration.signInLimits = SignInLimits(perAccount: 10, perAddress: 10, window: 60)
        try await withLiveProvider(configuration) { _, client, provider in
            let port = try #require(client.port)
            let correct = try await Self.signInAtOnce(port: port, count: 64, email: "alice@example.com", password: "alice-pass")
            #expect(correct.filter { $0 == .seeOther }.count == 64, "\(correct.filter { $0 != .seeOther })")
            #expect(await provider.services.signInGate.checksInFlight(SignInThrottle.addressKey("127.0.0.1")) == 0)

            let wrong = try await Self.signInAtOnce(port: port, count: 40, email: "bob@example.com", password: "not-bobs")
            #expect(wrong.filter { $0 == .unauthorized }.count == 10)
            #expect(wrong.filter { $0 == .tooManyRequests }.count == 30)
            let failures = try await provider.store.signInFailures(
                key: SignInThrottle.addressKey("127.0.0.1"), window: 60, now: ProviderTime.now()
            )
            #expect(failures.attempts == 10, "only the checked failures are counted")
        }
    }

    @Test("the gate: a check that would go over the limit waits for one in flight, then enters; a failure sends waiters back to the store")
    func gateWaitsAndRereads() async throws {
        let gate = SignInCheckGate()
        let place = SignInCheckGate.Place(key: "k", failures: 1, limit: 2)
        #expect(await gate.enter([place], readAtGeneration: 0))
        #expect(await gate.checksInFlight("k") == 1)
        // Full (1 failure + 1 in flight): the next waits until the first leaves without failing.
        let waiter = Task { await gate.enter([place], readAtGeneration: 0) }
        while await gate.waitingCount == 0 { await Task.yield() }
        await gate.leave(["k"], failed: false)
        #expect(await waiter.value)
        // Full again; the one in flight fails: the waiter comes back with false (read the failures again).
        let second = Task { await gate.enter([place], readAtGeneration: 0) }
        while await gate.waitingCount == 0 { await Task.yield() }
        await gate.leave(["k"], failed: true)
        #expect(await second.value == false)
        #expect(await gate.checksInFlight("k") == 0)
        #expect(await gate.failureGeneration == 1)
    }
}
