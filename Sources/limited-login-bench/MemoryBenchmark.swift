import AsyncHTTPClient
import Foundation

/// Resident memory of a provider on an in-memory store as logins accumulate: each login makes a session
/// in the store (as signing in does) and asks the dialog for an ID token with it (session, user, grant,
/// app-scoped ID and friends lookups, the signature). Sessions live `sessionLifetime` seconds, so a
/// store that purges expired sessions stays flat, and one that does not grows with every login.
struct MemoryBenchmark {
    var logins = 100_000
    var checkpoint = 10_000
    var sessionLifetime: Int64 = 2
    var clients = 8
    /// Each login as a new browser does it (`--sign-in`): the sign-in page, a pick of the person (Charles; a used
    /// form and a session of the provider's own lifetime, 30 days), then the dialog with the session's
    /// cookie; instead of a session of `sessionLifetime` made in the store.
    var signIn = false

    func run() async throws {
        try await BenchProvider.withNode(fileStore: false, clients: clients) { node, http in
            try await measure(node: node, http: http)
        }
    }

    private func measure(node: BenchProvider, http: HTTPClient) async throws {
        let url = node.baseURL + BenchProvider.dialogTarget
        let store = node.provider.store
        let login =
            signIn
            ? "the sign-in page, a pick of the person, then the dialog with its session" : "a new session of \(sessionLifetime) s, then the dialog"
        print("memory: provider on :memory:, \(clients) concurrent logins (\(login)), \(logins) logins")
        print(String(format: "  at start: RSS %.1f MB", Self.residentMegabytes()))
        let clock = ContinuousClock()
        let start = clock.now
        var marks: [(Int, Double)] = []
        var done = 0
        // A reading every `checkpoint` logins (a tenth of a shorter run).
        let checkpoint = min(self.checkpoint, max(1, logins / 10))
        for target in stride(from: checkpoint, through: logins, by: checkpoint) {
            let lifetime = sessionLifetime
            let signIn = self.signIn
            let share = (target - done) / clients
            let extra = (target - done) % clients
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    let count = share + (client < extra ? 1 : 0)
                    group.addTask {
                        for _ in 0..<count {
                            if signIn {
                                _ = try await Self.signInAndIssue(node: node, http: http)
                            } else {
                                let session = try await store.createSession(userID: "100001", lifetime: lifetime)
                                _ = try await BenchProvider.issue(url, session: session, http: http)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            done = target
            let rss = Self.residentMegabytes()
            marks.append((done, rss))
            print(String(format: "  after %d logins (%.0f s): RSS %.1f MB", done, (clock.now - start).seconds, rss))
        }
        let first = marks.first?.1 ?? 0
        let last = marks.last?.1 ?? 0
        print(
            String(
                format: "memory: RSS %.1f MB after %d logins, %.1f MB after %d, difference %.1f MB", first, marks.first?.0 ?? 0, last, done,
                last - first))
    }

    /// One login as a new browser: the sign-in page (its form token and browser cookie), the person
    /// picked, then the dialog with the session cookie the sign-in set; returns the ID token.
    static func signInAndIssue(node: BenchProvider, http: HTTPClient) async throws -> String {
        let page = try await http.execute(HTTPClientRequest(url: node.baseURL + BenchProvider.dialogTarget), timeout: .seconds(30))
        let html = String(buffer: try await page.body.collect(upTo: 1 << 20))
        var cookies = page.headers["Set-Cookie"].map { String($0.split(separator: ";", maxSplits: 1)[0]) }
        guard let csrf = SignInTimingBenchmark.hiddenInput("csrf_token", in: html),
            let dialog = SignInTimingBenchmark.hiddenInput("request", in: html)
        else { throw BenchmarkError.unexpectedResponse("the dialog answered \(page.status) without a sign-in form") }
        var post = HTTPClientRequest(url: node.baseURL + "/dialog/oauth/signin")
        post.method = .POST
        post.headers.add(name: "Cookie", value: cookies.joined(separator: "; "))
        post.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let form = [("csrf_token", csrf), ("request", dialog), ("user_id", "100002")]
            .map { "\($0.0)=\(SignInTimingBenchmark.formEncoded($0.1))" }.joined(separator: "&")
        post.body = .bytes(Array(form.utf8))
        let signedIn = try await http.execute(post, timeout: .seconds(30))
        _ = try await signedIn.body.collect(upTo: 1 << 20)
        guard signedIn.status == .seeOther,
            let session = signedIn.headers["Set-Cookie"].first(where: { $0.hasPrefix("ll_session=") })
        else { throw BenchmarkError.unexpectedResponse("the sign-in answered \(signedIn.status) without a session") }
        cookies = [String(session.split(separator: ";", maxSplits: 1)[0].dropFirst("ll_session=".count))]
        return try await BenchProvider.issue(node.baseURL + BenchProvider.dialogTarget, session: cookies[0], http: http)
    }

    /// This process's resident set size, from `/proc/self/status` (0 where there is none).
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
