import AsyncHTTPClient
import Foundation
import LimitedLoginProvider

/// `signin-timing`: does a failed sign-in's answer time tell whether the email has an account? Wrong
/// passwords for a known email and for unknown emails, alternated through the real dialog's sign-in form
/// (a page, its form token and cookie, then the post), each timed by the client; the ratio of the two
/// medians is the figure (1.0: the same time). The suite does not time this (a busy machine moves the
/// medians); it checks the structure instead: the decoy hash has a stored password's cost.
struct SignInTimingBenchmark {
    var tries = 200

    func run() async throws {
        let unlimited = SignInLimits(perAccount: 1_000_000, perAddress: 1_000_000)
        try await BenchProvider.withNode(fileStore: false, clients: 1, signInLimits: unlimited) { node, http in
            var known: [Double] = []
            var unknown: [Double] = []
            // Four untimed tries first (the decoy hash is made on first use), then alternate, so that
            // whatever else the machine does falls on both kinds alike.
            for round in 0..<(tries + 2) {
                for email in ["ada@example.test", "nobody-\(round)@example.test"] {
                    let seconds = try await Self.failedSignIn(email: email, node: node, http: http)
                    guard round >= 2 else { continue }
                    if email.hasPrefix("ada") { known.append(seconds) } else { unknown.append(seconds) }
                }
            }
            let knownMedian = median(known)
            let unknownMedian = median(unknown)
            print(
                String(
                    format: "sign-in timing: %d tries each; wrong password for a known email median %.2f ms, unknown email %.2f ms; ratio %.3f",
                    tries, knownMedian * 1000, unknownMedian * 1000, unknownMedian / knownMedian
                ))
        }
    }

    /// Opens the sign-in page (untimed), then posts a wrong password for `email`; the post's seconds.
    /// The answer must be the page's 401.
    static func failedSignIn(email: String, node: BenchProvider, http: HTTPClient) async throws -> Double {
        let page = try await http.execute(HTTPClientRequest(url: node.baseURL + BenchProvider.dialogTarget), timeout: .seconds(30))
        let html = String(buffer: try await page.body.collect(upTo: 1 << 20))
        let cookie = page.headers["Set-Cookie"].map { String($0.split(separator: ";", maxSplits: 1)[0]) }.joined(separator: "; ")
        guard let csrf = hiddenInput("csrf_token", in: html), let dialog = hiddenInput("request", in: html) else {
            throw BenchmarkError.unexpectedResponse("the dialog answered \(page.status) without a sign-in form")
        }
        var post = HTTPClientRequest(url: node.baseURL + "/dialog/oauth/signin")
        post.method = .POST
        post.headers.add(name: "Cookie", value: cookie)
        post.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let form = [("csrf_token", csrf), ("request", dialog), ("email", email), ("pass", "wrong-password")]
            .map { "\($0.0)=\(formEncoded($0.1))" }.joined(separator: "&")
        post.body = .bytes(Array(form.utf8))
        let start = ContinuousClock.now
        let answer = try await http.execute(post, timeout: .seconds(30))
        _ = try await answer.body.collect(upTo: 1 << 20)
        let elapsed = ContinuousClock.now - start
        guard answer.status == .unauthorized else {
            throw BenchmarkError.unexpectedResponse("a wrong password was answered \(answer.status), not 401")
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The value of `<input type="hidden" name="NAME" value="…">` (the provider's own markup and escapes).
    static func hiddenInput(_ name: String, in html: String) -> String? {
        guard let nameRange = html.range(of: "name=\"\(name)\""), let valueStart = html[nameRange.upperBound...].range(of: "value=\"")
        else { return nil }
        let rest = html[valueStart.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        var value = String(rest[..<end])
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#96;", "`"), ("&#61;", "="), ("&amp;", "&")] {
            value = value.replacingOccurrences(of: entity, with: character)
        }
        return value
    }

    static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
