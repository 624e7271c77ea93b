import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Logging
import Synchronization
import Testing

@testable import LimitedLoginProvider

/// Collects every log record, at every level, as text.
final class CapturedLogs: Sendable {
    let records = Mutex<[String]>([])
    var all: String { records.withLock { $0.joined(separator: "\n") } }
}

struct CapturingLogHandler: LogHandler {
    let logs: CapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        logs.records.withLock { $0.append("\(event.level) \(event.message) \(merged) \(event.source)") }
    }
}

@Suite("Logs")
struct LoggingTests {
    @Test("a request line's duration is written to a tenth of a millisecond, as %.1f writes it")
    func durationFormat() {
        for (milliseconds, text) in [(0.0, "0.0"), (0.04, "0.0"), (0.44, "0.4"), (0.96, "1.0"), (12.96, "13.0"), (1234.5678, "1234.6"), (7.0, "7.0")]
        {
            #expect(RequestLog.format(milliseconds) == text)
            #expect(RequestLog.format(milliseconds) == String(format: "%.1f", milliseconds))
        }
    }

    @Test("at trace level, the logs of a full session hold no token, code, nonce, password or cookie")
    func noSecretsInLogs() async throws {
        let logs = CapturedLogs()
        var logger = Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) })
        logger.logLevel = .trace
        let provider = try await LimitedLoginProvider.prepare(TestFixtures.configuration(), logger: logger)
        let secrets = try await provider.application().test(.router) { client -> [String] in
            let browser = DialogBrowser(client: client)
            let signInPage = try await browser.get(dialogPath(nonce: "nonce-SECRET-1"))
            let wrong = try await browser.signIn(email: "alice@example.com", password: "wrong-PASSWORD", on: signInPage)
            let signedIn = try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: wrong)
            let consent = try await browser.get(try #require(signedIn.location))
            let done = try await browser.consent(on: consent)
            let idToken = try #require(try done.redirectParameters().single("id_token"))

            let verifier = CodeVerifier()
            let codePage = try await browser.get(
                dialogPath(
                    limited: false, responseType: "code,token",
                    extra: [("code_challenge", verifier.challenge), ("code_challenge_method", "S256")]
                ))
            let codeParameters = try codePage.redirectParameters()
            let code = try #require(try codeParameters.single("code"))
            let accessToken = try #require(try codeParameters.single("access_token"))
            _ = try await client.execute(
                uri:
                    "/oauth/access_token?client_id=\(TestFixtures.appID)&redirect_uri=\(FormParameters.encode(TestFixtures.registeredRedirect))&code=\(code)&code_verifier=\(verifier.value)",
                method: .get
            )
            var form = FormParameters()
            form.append("id_token", idToken)
            form.append("app_id", TestFixtures.appID)
            _ = try await client.execute(
                uri: "/platform/uninstall", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: form.encoded)
            )
            return [
                "nonce-SECRET-1", "wrong-PASSWORD", "alice-pass", idToken, String(idToken.split(separator: ".")[1]), code,
                accessToken, verifier.value, try #require(browser.cookies["ll_session"]), try #require(browser.cookies["ll_browser"]),
            ]
        }
        await provider.store.close()
        let text = logs.all
        #expect(text.contains("login completed"), "the logs do say what happened")
        for secret in secrets {
            #expect(!text.contains(secret), "a log record contains \(secret.prefix(12))…")
        }
    }

    @Test("a health check that meets the store closed on purpose (a start that failed, a stop) answers 503 and logs no warning")
    func closedStoreHealthIsQuiet() async throws {
        let logs = CapturedLogs()
        let logger = Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) })
        let provider = try await LimitedLoginProvider.prepare(TestFixtures.configuration(), logger: logger)
        await provider.store.close()
        try await provider.application().test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .serviceUnavailable)
            #expect(String(buffer: health.body).contains("the store does not answer"), "\(String(buffer: health.body))")
        }
        #expect(!logs.all.contains("health check failed"), "\(logs.all)")
    }

    @Test(
        "each request is one line at info with status, duration and request ID (the client's, when plausible, sent back); polled paths at debug; error pages with their reason; login completed names the user"
    )
    func requestLines() async throws {
        let logs = CapturedLogs()
        var logger = Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) })
        logger.logLevel = .info
        let provider = try await LimitedLoginProvider.prepare(TestFixtures.configuration(), logger: logger)
        try await provider.application().test(.router) { client in
            let offered = try await client.execute(
                uri: "/.well-known/openid-configuration", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "proxy-id_42.a"])
            #expect(offered.headers[HTTPField.Name("X-Request-Id")!] == "proxy-id_42.a")
            let refused = try await client.execute(
                uri: "/.well-known/openid-configuration", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "bad id\u{7F}"])
            let made = try #require(refused.headers[HTTPField.Name("X-Request-Id")!])
            #expect(made.count == 16 && made.allSatisfy(\.isHexDigit), "\(made)")
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(uri: "/favicon.ico", method: .get)
            _ = try await client.execute(uri: "/dialog/oauth?client_id=999&redirect_uri=x", method: .get)
            _ = try await DialogBrowser(client: client).logIn(dialogPath(scope: "openid,email"), as: TestFixtures.alice)
        }
        await provider.store.close()
        let lines = logs.records.withLock { $0 }
        let discovery = lines.filter { $0.hasPrefix("info GET /.well-known/openid-configuration 200 ") }
        #expect(discovery.count == 2, "\(lines)")
        #expect(discovery.first?.contains(#""request_id": proxy-id_42.a"#) == true, "\(discovery)")
        #expect(discovery.allSatisfy { $0.contains(" ms [") && $0.contains(#""duration_ms": "#) }, "\(discovery)")
        #expect(!lines.contains { $0.contains("/health") || $0.contains("/favicon.ico") }, "polled paths at info: \(lines)")
        let errorPage = try #require(lines.first { $0.hasPrefix("info dialog error page: App not found") }, "\(lines)")
        #expect(errorPage.contains(#""reason": No app with ID 999 is registered with this provider."#), "\(errorPage)")
        #expect(errorPage.contains(#""request_id": "#))
        let completed = try #require(lines.first { $0.hasPrefix("info login completed") }, "\(lines)")
        #expect(completed.contains(#""user": \#(TestFixtures.alice)"#), "\(completed)")
        #expect(completed.contains(#""permissions": email,openid,public_profile"#), "\(completed)")
    }

    @Test("a store outage is three kinds of line: when it begins, a summary every 5 s, when it ends; /health's failures once each (issue #58)")
    func storeOutageLines() {
        let logs = CapturedLogs()
        let outages = StoreOutageLog(logger: Logger(label: "provider", factory: { _ in CapturingLogHandler(logs: logs) }))
        let second: UInt64 = 1_000_000_000
        let start: UInt64 = 1_000 * second
        let error = StoreError.unavailable("connection refused")
        // 600 refused requests over 12 s (50 a second).
        for index in 0..<600 { outages.refused(cause: "the database cannot be reached", error: error, now: start + UInt64(index) * second / 50) }
        outages.answered(now: start + 12 * second)
        #expect(logs.records.withLock { $0 }.count == 3, "a read answered a moment after a refusal ends nothing (a stylesheet between two)")
        outages.answered(now: start + 17 * second)
        outages.answered(now: start + 18 * second)
        let lines = logs.records.withLock { $0 }
        #expect(lines.count == 4, "\(lines.joined(separator: "\n"))")
        #expect(lines.first?.contains("store outage began: the database cannot be reached") == true)
        #expect(
            lines.filter { $0.contains("store outage goes on: the database cannot be reached; 250 requests answered 503 in the last 5 s") }.count == 2
        )
        #expect(lines.last?.contains("store outage ended after 17 s: 600 requests answered 503") == true, "\(lines.last ?? "")")
        outages.refused(cause: "the database cannot be reached", error: error, now: start + 19 * second)
        outages.answered(wrote: true, now: start + 19 * second)
        #expect(
            logs.records.withLock { $0 }.last?.contains("store outage ended after 0 s: 1 request answered 503") == true, "a write ends it at once")
        #expect(outages.recentWriteFailure(now: start + 13 * second) == nil, "no write was refused for want of space")

        outages.refused(cause: "the disk is full", error: error, now: start + 20 * second)
        #expect(outages.recentWriteFailure(now: start + 29 * second) == "the disk is full")
        #expect(outages.recentWriteFailure(now: start + 31 * second) == nil)
        outages.refused(cause: "the disk is full", error: error, now: start + 40 * second)
        outages.answered(wrote: false, now: start + 41 * second)
        #expect(outages.recentWriteFailure(now: start + 42 * second) == "the disk is full", "a read does not show writes work")
        outages.answered(wrote: true, now: start + 42 * second)
        #expect(outages.recentWriteFailure(now: start + 43 * second) == nil, "a write that succeeded does")

        logs.records.withLock { $0.removeAll() }
        for _ in 1...5 { outages.healthFailed("the store cannot write: the disk is full", error: error) }
        outages.healthPassed()
        outages.healthPassed()
        let health = logs.records.withLock { $0 }
        #expect(health.count == 2, "\(health)")
        #expect(health.first?.contains("health check failed: the store cannot write: the disk is full") == true)
        #expect(health.last?.contains("health check passes again") == true)
    }
}
