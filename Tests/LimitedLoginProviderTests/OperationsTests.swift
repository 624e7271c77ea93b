import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginCore
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// `/metrics` and `/health`: what an operator scrapes and probes.
@Suite("Operations: metrics and health")
struct OperationsTests {
    static func metrics(_ client: any TestClientProtocol) async throws -> String {
        let response = try await client.execute(
            uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)"])
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        return String(buffer: response.body)
    }

    @Test("/metrics needs the admin token (401 without, 403 wrong) unless serve --public-metrics")
    func metricsNeedTheAdminToken() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let anonymous = try await client.execute(uri: "/metrics", method: .get)
            #expect(anonymous.status == .unauthorized && !String(buffer: anonymous.body).contains("limited_login_"))
            #expect(String(buffer: anonymous.body).contains("The admin API needs Authorization: Bearer <admin token>."))
            let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer not-the-admin-token-at-all"])
            #expect(wrong.status == .forbidden && String(buffer: wrong.body).contains("The admin token is wrong."))
            #expect(try await Self.metrics(client).contains("limited_login_"))
        }
        var configuration = harnessConfiguration()
        configuration.publicMetrics = true
        try await withProvider(configuration) { client, _ in
            _ = try await client.execute(uri: "/.well-known/openid-configuration", method: .get)
            let anonymous = try await client.execute(uri: "/metrics", method: .get)
            #expect(anonymous.status == .ok && String(buffer: anonymous.body).contains("limited_login_"))
        }
    }

    /// The value of one sample line (`name{labels} value`), or nil when it is absent.
    static func sample(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("dialog pages, logins, tokens by kind, errors by kind and request latency are counted")
    func countsWhatHappens() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let browser = DialogBrowser(client: client)
            _ = try await browser.logIn(dialogPath(scope: "openid,email"), as: TestFixtures.alice)
            let classic = try await DialogBrowser(client: client).logIn(
                dialogPath(limited: false, responseType: "token,id_token"), as: TestFixtures.bob
            )
            #expect(classic.location != nil)
            _ = try await client.execute(uri: "/dialog/oauth?client_id=999&redirect_uri=x", method: .get)
            _ = try await client.execute(uri: "/v21.0/me", method: .get)

            let text = try await Self.metrics(client)
            #expect(Self.sample(text, #"limited_login_dialogs_shown_total{page="signin"}"#) == 2)
            #expect(Self.sample(text, #"limited_login_dialogs_shown_total{page="consent"}"#) == 2)
            #expect(Self.sample(text, #"limited_login_logins_total{mode="limited"}"#) == 1)
            #expect(Self.sample(text, #"limited_login_logins_total{mode="classic"}"#) == 1)
            #expect(Self.sample(text, #"limited_login_tokens_issued_total{kind="id_token"}"#) == 2)
            #expect(Self.sample(text, #"limited_login_tokens_issued_total{kind="access_token"}"#) == 1)
            #expect(Self.sample(text, #"limited_login_errors_total{kind="dialog_page",code="404"}"#) == 1, "an unknown app")
            #expect(Self.sample(text, #"limited_login_errors_total{kind="http_4xx",code="401"}"#) == 1, "me without a token")
            #expect(Self.sample(text, #"limited_login_errors_total{kind="http_4xx",code="404"}"#) == 1)
            let dialogCount = text.split(separator: "\n").filter {
                $0.hasPrefix("limited_login_request_duration_seconds_count{") && $0.contains(#"route="/dialog/oauth""#)
            }
            #expect(!dialogCount.isEmpty, "\(text)")
            #expect(text.contains("# TYPE limited_login_request_duration_seconds histogram"))
            #expect(Self.sample(text, #"limited_login_dialog_outcomes_total{outcome="completed",error=""}"#) == 2)
        }
    }

    @Test("every metric has its HELP line; latency is by exact status; a cancel is an outcome, not an error; the favicon is served, not a 404")
    func helpStatusCancelFavicon() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let browser = DialogBrowser(client: client)
            let signIn = try await browser.get(dialogPath())
            let consent = try await browser.get(
                try #require(try await browser.signIn(email: "alice@example.com", password: "alice-pass", on: signIn).location))
            let cancelled = try await browser.consent(on: consent, action: "cancel")
            #expect(try cancelled.redirectParameters().single("error") == "access_denied")
            let favicon = try await client.execute(uri: "/favicon.ico", method: .get)
            #expect(favicon.status == .ok)
            #expect(favicon.headers[.contentType] == "image/x-icon")
            #expect(Array(favicon.body.readableBytesView.prefix(4)) == [0, 0, 1, 0], "an ICO header")
            _ = try await client.execute(uri: "/v21.0/me", method: .get)  // a 401: an error, counted below

            let text = try await Self.metrics(client)
            let typed = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            #expect(
                Set(typed).isSuperset(of: [
                    "limited_login_dialogs_shown_total", "limited_login_dialog_outcomes_total", "limited_login_errors_total",
                    "limited_login_request_duration_seconds",
                ]), "\(typed)")
            for name in typed {
                #expect(text.contains("# HELP \(name) "), "no HELP for \(name): \(text)")
            }
            #expect(Self.sample(text, #"limited_login_dialog_outcomes_total{outcome="cancelled",error=""}"#) == 1)
            #expect(!text.contains(#"kind="cancelled""#), "a cancel counted as an error")
            #expect(!text.contains(#"kind="dialog_redirect""#))
            let favicons = text.split(separator: "\n").filter {
                $0.hasPrefix("limited_login_request_duration_seconds_count{") && $0.contains(#"route="/favicon.ico""#)
            }
            #expect(favicons.count == 1 && favicons.first?.contains(#"status="200""#) == true, "\(favicons)")
            #expect(!text.contains(#"code="404""#), "a 404 was counted: \(text)")
            #expect(Self.sample(text, #"limited_login_errors_total{kind="http_4xx",code="401"}"#) == 1, "me without a token")
        }
    }
}
