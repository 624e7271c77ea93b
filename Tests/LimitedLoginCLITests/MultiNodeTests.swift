import AsyncHTTPClient
import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// Two `limited-login serve` processes on different ports sharing one PostgreSQL database behave as one
/// provider. A load balancer would put them behind one origin; the scripted browser keeps one cookie jar
/// for both, as a browser would for that origin, and both nodes carry the same `--issuer`.
@Suite("Two provider processes on one PostgreSQL database", .enabled(if: PostgresTestDatabase.serverURL != nil))
struct MultiNodeTests {
    static let issuer = "https://login.example"

    func kid(of token: String) throws -> String? {
        try CompactJWS(parsing: token).header["kid"]?.stringValue
    }

    @Test("a session, grant, key, app and uninstall made through one node are seen by the other")
    func twoNodesAsOne() async throws {
        let database = try await PostgresTestDatabase.create()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-nodes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let arguments = ["--port", "0", "--database", database, "--admin-token", "nodes-admin-token-16", "--issuer", Self.issuer]
        let first = try await ServerProcess.start(arguments, directory: folder)
        defer { Task { await first.stop() } }
        let second = try await ServerProcess.start(arguments, directory: folder)
        defer { Task { await second.stop() } }
        #expect(first.output.contains("First start"))
        #expect(!second.output.contains("First start"), "the demo data is seeded once, by the first node")

        let browser = ScriptedPresenter(person: ScriptedPerson(signIn: .credentials(email: "alice@example.com", password: "password")))
        func manager(_ node: ServerProcess) throws -> (LoginManager, LoginSession) {
            let session = LoginSession(store: nil)
            let endpoints = LoginEndpoints.provider(try #require(URL(string: node.baseURL)))
            return (LoginManager(appID: LoginCommandTests.demoApp, endpoints: endpoints, presenter: browser, session: session), session)
        }
        let configuration = try #require(LoginConfiguration(permissions: ["email"], tracking: .enabled, authType: nil))

        // Signed in and consented through the first node.
        let (viaFirst, firstSession) = try manager(first)
        _ = try await viaFirst.logIn(configuration: configuration)
        #expect(browser.pageTitles.count == 2, "sign-in and consent: \(browser.pageTitles)")
        let firstToken = try #require(firstSession.authenticationToken?.tokenString)

        // Through the second: no page at all (session and grant are in the database), the same person,
        // and a token the second node's keys verify.
        let (viaSecond, secondSession) = try manager(second)
        _ = try await viaSecond.logIn(configuration: configuration)
        #expect(browser.pageTitles.count == 2, "no page shown by the second node: \(browser.pageTitles)")
        #expect(secondSession.profile?.userID == firstSession.profile?.userID)
        let verified = try await CLIProcess.run([
            "verify", firstToken, "--app-id", LoginCommandTests.demoApp, "--no-nonce", "--discovery-url",
            second.baseURL + "/.well-known/openid-configuration",
        ])
        #expect(verified.status == 0, "\(verified.error)")

        // A key rotated through the first node signs on both within the reread interval (5 s).
        let rotated = try await CLIProcess.run([
            "keys", "rotate", "--provider", first.baseURL, "--admin-token", "nodes-admin-token-16", "--publish-delay", "0",
        ])
        #expect(rotated.status == 0, "\(rotated.error)")
        let oldKid = try kid(of: firstToken)
        var kids: (String?, String?) = (oldKid, oldKid)
        for _ in 0..<24 {
            try await Task.sleep(for: .milliseconds(500))
            do { _ = try await viaFirst.logIn(configuration: configuration) } catch {
                Issue.record("first node: \(error)")
                break
            }
            do { _ = try await viaSecond.logIn(configuration: configuration) } catch {
                Issue.record("second node: \(error)")
                break
            }
            kids = (
                try kid(of: firstSession.authenticationToken?.tokenString ?? ""), try kid(of: secondSession.authenticationToken?.tokenString ?? "")
            )
            if kids.0 != oldKid, kids.1 != oldKid { break }
        }
        #expect(kids.0 != oldKid)
        #expect(kids.0 == kids.1, "both nodes sign with the new key")

        // An app created through one node's admin API is listed by the other's.
        let created = try await CLIProcess.run([
            "apps", "create", "--provider", first.baseURL, "--admin-token", "nodes-admin-token-16", "--id", "4444444444", "--name", "Shared App",
        ])
        #expect(created.status == 0, "\(created.error)")
        let listed = try await CLIProcess.run(["apps", "list", "--provider", second.baseURL, "--admin-token", "nodes-admin-token-16"])
        #expect(listed.output.contains("4444444444"))

        // The app uninstalled through the second node: the first refuses the access token at once.
        let accessToken = try #require(firstSession.accessToken?.tokenString)
        let revoked = try await HTTPExchange.send(
            second.baseURL + "/v21.0/me/permissions", method: .DELETE, headers: [("Authorization", "OAuth \(accessToken)")]
        )
        #expect(revoked.status == 200, "\(revoked.body)")
        let refused = try await HTTPExchange.send(first.baseURL + "/v21.0/me", headers: [("Authorization", "OAuth \(accessToken)")])
        #expect(refused.body.contains("\"error_subcode\":458"), "\(refused.body)")
    }

    /// Issue #36 item 3: with PostgreSQL the clock and its effects are the cluster's.
    @Test("the clock is the cluster's: a move through one node reaches the other within seconds, and a node started later begins with it")
    func clusterClock() async throws {
        let database = try await PostgresTestDatabase.create()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-clock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let token = "nodes-admin-token-16"
        let arguments = ["--port", "0", "--database", database, "--admin-token", token, "--issuer", Self.issuer]
        let first = try await ServerProcess.start(arguments, directory: folder)
        defer { Task { await first.stop() } }
        let second = try await ServerProcess.start(arguments, directory: folder)
        defer { Task { await second.stop() } }
        func offset(_ node: ServerProcess) async throws -> Int64? {
            let shown = try await HTTPExchange.send(node.baseURL + "/_admin/clock", headers: [("Authorization", "Bearer \(token)")])
            guard case .object(let object) = try StrictJSONParser().parse(Array(shown.body.utf8)) else { return nil }
            return object["offset"]?.numberValue.map { Int64($0) }
        }
        /// Polls `node` until its offset is `expected` (a bound on a liveness check, not a speed).
        func waitFor(_ expected: Int64, on node: ServerProcess) async throws -> Int64? {
            var seen = try await offset(node)
            for _ in 0..<60 where seen != expected {
                try await Task.sleep(for: .milliseconds(250))
                seen = try await offset(node)
            }
            return seen
        }
        let advanced = try await CLIProcess.run(["clock", "advance", "1h", "--provider", first.baseURL, "--admin-token", token])
        #expect(advanced.status == 0, "\(advanced.error)")
        #expect(try await waitFor(3600, on: second) == 3600, "the second node took the first node's move")
        let minted = try await CLIProcess.run([
            "token", "--app-id", LoginCommandTests.demoApp, "--user", "alice@example.com", "--json", "--provider", second.baseURL, "--admin-token",
            token,
        ])
        guard case .object(let answer) = try StrictJSONParser().parse(Array(minted.output.utf8)),
            let iat = answer["claims"]?.objectValue?["iat"]?.numberValue
        else {
            Issue.record("no claims: \(minted.output) \(minted.error)")
            return
        }
        #expect(abs(iat - (Date().timeIntervalSince1970 + 3600)) < 120, "the second node issues at the cluster's time")

        let third = try await ServerProcess.start(arguments, directory: folder)
        defer { Task { await third.stop() } }
        #expect(try await offset(third) == 3600, "a node started later begins with the cluster's clock")

        let reset = try await CLIProcess.run(["clock", "reset", "--provider", second.baseURL, "--admin-token", token])
        #expect(reset.status == 0, "\(reset.error)")
        #expect(try await waitFor(0, on: first) == 0, "a reset through the second node reached the first")

        // Advances through two nodes one right after the other add up: the second is made from the stored
        // offset, not from its node's, which follows the store at most once a second (it just looked).
        // One client for the three requests, so that they follow each other within that second.
        func send(_ node: ServerProcess, _ method: HTTPMethod, _ json: String? = nil) async throws -> HTTPClientResponse {
            var request = HTTPClientRequest(url: node.baseURL + "/_admin/clock")
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let json {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
            _ = try await response.body.collect(upTo: 1 << 16)
            return response
        }
        _ = try await send(second, .GET)
        for (index, node) in [first, second].enumerated() {
            let moved = try await send(node, .POST, #"{"advance": 3600}"#)
            #expect(moved.status == .ok, "advance \(index): \(moved.status)")
        }
        let settled = try await waitFor(7200, on: first)
        let onSecond = try await offset(second)
        #expect(
            settled == 7200 && onSecond == 7200,
            "two advances of an hour are two hours: \(String(describing: settled)), \(String(describing: onSecond))")
    }
}
