import Foundation
import Hummingbird
import LimitedLoginAudit
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Synchronization
import Testing

@testable import limited_login

#if canImport(FoundationXML)
import FoundationXML
#endif

private let adminToken = "audit-admin-token-for-tests"
private let app = "1000000000000001"

/// A provider with the demo data and this suite's admin token (``withAuditProvider(adminToken:_:)``).
private func withProvider<T: Sendable>(_ body: @Sendable (ServerProcess) async throws -> T) async throws -> T {
    try await withAuditProvider(adminToken: adminToken, body)
}

private func decodingOnlyBackend(pointerStyle: Bool = false) -> Router<BasicRequestContext> {
    decodingOnlyAuditBackend(app: app, pointerStyle: pointerStyle)
}

private func report(_ output: String) throws -> JSONObject {
    try #require(try StrictJSONParser(maximumSize: 1 << 20).parse(Array(output.utf8)).objectValue, "not a JSON object: \(output)")
}

private func names(_ report: JSONObject, verdict: String) -> Set<String> {
    Set(
        (report["cases"]?.arrayValue ?? []).compactMap { $0.objectValue }.filter { $0["verdict"]?.stringValue == verdict }.compactMap {
            $0["name"]?.stringValue
        })
}

/// A backend that crashes (500) on a token whose header is not RS256, and otherwise only decodes.
private func crashingOnAlgorithmBackend() -> Router<BasicRequestContext> {
    let router = Router()
    let decoding = decodingOnlyBackend().buildResponder()
    router.get("/me") { request, context -> Response in
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            let first = header.dropFirst("Bearer ".count).split(separator: ".").first, let bytes = try? Base64URL.decode(String(first)),
            let fields = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], fields["alg"] as? String != "RS256"
        {
            return Response(status: .internalServerError)
        }
        return try await decoding.respond(to: request, context: context)
    }
    return router
}

/// A decoding-only backend with a replay cache, as django-allauth keeps: a `jti` it has seen is refused.
private func rememberingBackend() -> Router<BasicRequestContext> {
    let router = Router()
    let seen = Mutex<Set<String>>([])
    router.get("/me") { request, _ -> Response in
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return Response(status: .unauthorized) }
        let segments = header.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = try? Base64URL.decode(String(segments[1])),
            let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any], claims["aud"] as? String == app
        else { return Response(status: .unauthorized) }
        let jti = claims["jti"] as? String ?? ""
        let fresh = seen.withLock { $0.insert(jti).inserted }
        return Response(status: fresh ? .ok : .unauthorized)
    }
    return router
}

@Suite("CLI: limited-login audit")
struct AuditCommandTests {
    @Test("the example server (LimitedLoginHummingbird) accepts the good token and refuses all 44 bad ones; the JUnit report parses")
    func exampleServerPasses() async throws {
        try await withProvider { provider in
            let (server, base) = try await ExampleServerTests.startExampleServer(trusting: provider)
            defer { server.stop() }
            let junit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).xml")
            let run = try await CLIProcess.run([
                "audit", "--endpoint", base + "/me", "--header", "X-Limited-Login-Nonce: {raw_nonce}", "--provider", provider.baseURL,
                "--admin-token", adminToken, "--json", "--junit", junit.path,
            ])
            #expect(run.status == 0, "\(run.error)")
            let result = try report(run.output)
            #expect(result["summary"]?.objectValue?["cases"] == 45)
            #expect(result["summary"]?.objectValue?["ok"] == 45, "\(run.output)")
            #expect(run.error.contains("[45/45] payload-not-object: refused 401 → ok"), "a progress line per case")

            let document = try XMLDocument(contentsOf: junit)
            let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
            #expect(suite.attribute(forName: "tests")?.stringValue == "45")
            #expect(suite.attribute(forName: "failures")?.stringValue == "0")
            #expect(try document.nodes(forXPath: "//testcase").count == 45)
            #expect(try document.nodes(forXPath: "//failure").isEmpty)
        }
    }

    @Test("a backend that only decodes the payload: exit 1, and exactly the forged, unsigned and issuer holes are named")
    func decodingOnlyBackendFails() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(decodingOnlyBackend()) { port in
                let junit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).xml")
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--json", "--junit", junit.path,
                ])
                #expect(run.status == 1, "\(run.error)")
                let result = try report(run.output)
                #expect(
                    names(result, verdict: "hole") == [
                        "no-exp", "wrong-issuer", "issuer-prefix", "issuer-suffix", "bad-signature", "truncated-signature",
                        "signature-from-other-token", "unknown-key",
                        "kid-names-another-key", "alg-none", "alg-none-uppercase", "hs256-public-key", "hs256-public-key-pem-newline",
                        "hs256-public-key-der", "hs512-public-key", "jwk-header", "jku-header", "x5u-header", "x5c-header",
                    ])
                #expect(names(result, verdict: "ok").isSuperset(of: ["valid", "expired", "expired-past-leeway", "wrong-audience", "audience-list"]))
                #expect(names(result, verdict: "not-run") == ["wrong-nonce", "no-nonce", "raw-nonce-unhashed"], "the backend was given no nonce")
                let notRun = try #require(result["cases"]?.arrayValue?.compactMap(\.objectValue).first { $0["name"] == "wrong-nonce" })
                #expect(notRun["detail"]?.stringValue?.hasPrefix("the audit does not know how the backend gets the expected nonce") == true)

                let document = try XMLDocument(contentsOf: junit)
                let failures = try document.nodes(forXPath: "//testcase[failure]").compactMap {
                    ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue
                }
                #expect(Set(failures) == names(result, verdict: "hole"))
                #expect(try document.nodes(forXPath: "//testcase[skipped]").count == 3)

                let text = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "alg-none,wrong-audience",
                ])
                #expect(text.status == 1)
                #expect(text.output.contains("HOLE alg-none (accepted 200): alg none, no signature. A backend should accept RS256 only"))
                #expect(text.output.hasSuffix("FAILED: the backend accepted 1 token it must refuse: alg-none.\n"), "\(text.output)")

                // A leniency is a warning (exit 0) unless --strict asks that every case go as it should.
                let lenient = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken, "--only",
                    "too-old",
                ])
                #expect(lenient.status == 0 && lenient.output.contains("WARNING too-old (accepted 200)"), "\(lenient.output)")
                let strict = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken, "--only",
                    "too-old",
                    "--strict",
                ])
                #expect(strict.status == 1)
                #expect(strict.output.hasSuffix("FAILED (--strict): too-old did not go as they should.\n"), "\(strict.output)")
            }
        }
    }

    @Test(
        "a backend that accepts every token but answers 429 after its first request does not pass: 429 is no refusal, and a fresh good token at the end must still be accepted"
    )
    func rateLimitedAcceptAllBackend() async throws {
        try await withProvider { provider in
            let served = Mutex(0)
            let router = Router()
            router.get("/me") { _, _ -> Response in
                let count = served.withLock { count -> Int in
                    count += 1
                    return count
                }
                return Response(status: count == 1 ? .ok : .tooManyRequests)
            }
            try await withLoopbackServer(router) { port in
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                ])
                #expect(run.status == 3, "\(run.output)\n\(run.error)")
                #expect(run.error.contains("[control] valid, once more: other 429 → not accepted"), "\(run.error)")
                #expect(
                    run.error.hasSuffix(
                        "limited-login audit: the backend accepted the good token at the start but not a fresh one at the end (other 429): its refusals in between cannot be told from a rate limit or a replay check, so they prove nothing. Lift the rate limit for the audit, or give each request its own nonce with {nonce}.\n"
                    ), "\(run.error)")
                #expect(!run.output.contains("PASSED"))
            }
        }
    }

    @Test("a must-refuse token answered with a 500 is not a refusal: exit 1, the case named, and a JUnit failure")
    func unclearMustRefuseFails() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(crashingOnAlgorithmBackend()) { port in
                let junit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).xml")
                defer { try? FileManager.default.removeItem(at: junit) }
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "alg-none,wrong-audience", "--junit", junit.path,
                ])
                #expect(run.status == 1, "\(run.output)")
                #expect(run.output.contains("UNCLEAR alg-none (other 500)"), "\(run.output)")
                #expect(
                    run.output.hasSuffix(
                        "FAILED: the backend did not refuse 1 token it must refuse: alg-none (other 500); a refusal is a status in --refused (default 4xx).\n"
                    ), "\(run.output)")
                let document = try XMLDocument(contentsOf: junit)
                let failures = try document.nodes(forXPath: "//testcase[failure[@type='not-refused']]").compactMap {
                    ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue
                }
                #expect(failures == ["alg-none"])
            }
        }
    }

    @Test("issue #57: the FAILED line names holes and unrefused tokens alike; --json's summary.failed counts every case that failed the run")
    func everyFailingCaseNamed() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(crashingOnAlgorithmBackend()) { port in
                let arguments = [
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "alg-none,bad-signature,wrong-audience",
                ]
                let text = try await CLIProcess.run(arguments)
                #expect(text.status == 1)
                #expect(
                    text.output.hasSuffix(
                        "FAILED: the backend accepted 1 token it must refuse: bad-signature; and did not refuse 1 token it must refuse: alg-none (other 500); a refusal is a status in --refused (default 4xx).\n"
                    ), "\(text.output)")
                let json = try report(try await CLIProcess.run(arguments + ["--json"]).output)
                let summary = try #require(json["summary"]?.objectValue)
                #expect(
                    summary["failed"] == 2 && summary["good_tokens_refused"] == 0 && summary["holes"] == 1 && summary["unclear"] == 1, "\(summary)")
            }
        }
    }

    @Test("issue #57: --timeout bounds the body too; a refused good token shows its answer's first line; control bytes never reach the report raw")
    func drippingAndControlBytes() async throws {
        try await withProvider { provider in
            let dripping = Router()
            dripping.get("/me") { _, _ -> Response in
                // A head at once, then a body that never ends.
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody { writer in
                        for _ in 0..<600 {
                            try await writer.write(ByteBuffer(string: " "))
                            try await Task.sleep(for: .milliseconds(100))
                        }
                        try await writer.finish(nil)
                    })
            }
            try await withLoopbackServer(dripping) { port in
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "expired", "--timeout", "10",
                ])
                #expect(run.status != 0)
                #expect((run.output + run.error).contains("the answer's body did not end within 10 s (--timeout)"), "\(run.output)\n\(run.error)")
            }
            let refusing = Router()
            refusing.get("/me") { _, _ -> Response in
                Response(
                    status: .forbidden, headers: [.contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: "denied \u{1B}[31mred\u{07} \u{FFFF}here\nsecond line")))
            }
            try await withLoopbackServer(refusing) { port in
                let junit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).xml")
                defer { try? FileManager.default.removeItem(at: junit) }
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "expired", "--junit", junit.path,
                ])
                #expect(run.status == 1)
                #expect(run.output.contains("FAIL valid (refused 403)"), "\(run.output)")
                #expect(run.output.contains("The answer began: denied ?[31mred? ?here…"), "\(run.output)")
                #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{07}") && !run.output.contains("second line"))
                let document = try XMLDocument(contentsOf: junit)
                #expect(try document.nodes(forXPath: "//testcase[failure]").count == 1)
            }
        }
    }

    @Test("--strict: the JUnit report fails the warnings too, as the exit status does")
    func strictJUnit() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(decodingOnlyBackend()) { port in
                let junit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).xml")
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "too-old", "--strict", "--junit", junit.path,
                ])
                #expect(run.status == 1, "\(run.error)")
                let document = try XMLDocument(contentsOf: junit)
                let failures = try document.nodes(forXPath: "//testcase[failure]").compactMap {
                    ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue
                }
                #expect(failures == ["too-old"])
                let suite = try #require(try document.nodes(forXPath: "//testsuite").first as? XMLElement)
                #expect(suite.attribute(forName: "failures")?.stringValue == "1")
            }
        }
    }

    @Test("--accepted-pointer reads a 200 answer's JSON; a backend that refuses everything fails on the good token")
    func pointerAndRefusingBackend() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(decodingOnlyBackend(pointerStyle: true)) { port in
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "alg-none,expired", "--accepted-pointer", "/authenticated=true", "--json",
                ])
                #expect(run.status == 1)
                let result = try report(run.output)
                #expect(names(result, verdict: "hole") == ["alg-none"])
                #expect(names(result, verdict: "ok") == ["valid", "expired"])
            }
            let refuser = Router()
            refuser.get("/me") { _, _ in Response(status: .forbidden) }
            try await withLoopbackServer(refuser) { port in
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken, "--only",
                    "expired",
                ])
                #expect(run.status == 1)
                #expect(
                    run.output.hasSuffix(
                        "FAILED: the backend refused a good token (valid); the other verdicts prove nothing until it accepts one.\n"
                    ), "\(run.output)")
            }
        }
    }

    @Test("with --faults the example server fails closed while the key endpoints fail, recovers, and follows a rotation")
    func exampleServerResilience() async throws {
        try await withProvider { provider in
            let (server, base) = try await ExampleServerTests.startExampleServer(trusting: provider)
            defer { server.stop() }
            let run = try await CLIProcess.run([
                "audit", "--endpoint", base + "/me", "--header", "X-Limited-Login-Nonce: {raw_nonce}", "--provider", provider.baseURL,
                "--admin-token", adminToken, "--only", "alg-none", "--faults", "--fault-delay", "1", "--recovery-window", "120", "--json",
            ])
            #expect(run.status == 0, "\(run.error)\n\(run.output)")
            let result = try report(run.output)
            let faults = ["keys-500", "keys-timeout", "keys-empty", "keys-html", "keys-malformed", "keys-rotated"]
            let phases = [":during-unknown-key", ":after", ":during-valid"]
            let expectedOK: Set<String> = Set(faults.flatMap { fault in phases.map { fault + $0 } })
            let ok = names(result, verdict: "ok")
            #expect(ok.isSuperset(of: expectedOK), "\(run.output)")
            // The verifier refetches on an unknown kid after its 30 s cooldown: the new key is taken within the window.
            #expect(names(result, verdict: "ok").contains("key-rotation"), "\(run.output)")
            #expect(result["summary"]?.objectValue?["cases"] == 22)
        }
    }

    @Test("issue #57 item 2: a backend with a replay cache is detected; empty-jti is then not judged, saying why")
    func replayCache() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(rememberingBackend()) { port in
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "empty-jti", "--json",
                ])
                #expect(run.status == 0, "\(run.error)")
                #expect(run.error.contains("[control] the same good token twice: accepted, then refused (a replay cache)"), "\(run.error)")
                let result = try report(run.output)
                #expect(names(result, verdict: "not-run") == ["empty-jti"])
                let row = try #require(result["cases"]?.arrayValue?.compactMap(\.objectValue).first { $0["name"] == "empty-jti" })
                #expect(row["detail"]?.stringValue?.hasPrefix("the backend refuses a token it has seen (a replay cache)") == true, "\(row)")
            }
            // Without a cache the case is judged as before (a warning: the decoding-only backend takes an empty jti).
            try await withLoopbackServer(decodingOnlyBackend()) { port in
                let run = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "empty-jti", "--json",
                ])
                #expect(names(try report(run.output), verdict: "warning") == ["empty-jti"], "\(run.output)")
                #expect(run.error.contains("[control] the same good token twice: accepted, then accepted"), "\(run.error)")
            }
        }
    }

    @Test("issue #57 item 3: jku and x5u run for a backend on loopback, are not run (saying why) for one elsewhere without --attacker-host")
    func attackerHost() async throws {
        let reason =
            "the backend at backend.internal is not on this machine's loopback, and the attacker's key is served on 127.0.0.1 only: "
            + "give --attacker-host with an address of this machine the backend can reach"
        #expect(AuditAttacker.unreachableReason(endpointHost: "backend.internal", attackerHost: nil) == reason)
        #expect(AuditAttacker.unreachableReason(endpointHost: "backend.internal", attackerHost: "10.0.0.5") == nil)
        for loopback in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"] {
            #expect(AuditAttacker.unreachableReason(endpointHost: loopback, attackerHost: nil) == nil, "\(loopback)")
        }
        for elsewhere in ["128.0.0.1", "127.0.0.1.example.com", "10.0.0.8", "::2", "example.com"] {
            #expect(AuditAttacker.unreachableReason(endpointHost: elsewhere, attackerHost: nil) != nil, "\(elsewhere)")
        }

        try await withProvider { provider in
            try await withLoopbackServer(decodingOnlyBackend()) { port in
                // The key served where --attacker-host says: a backend that follows jku and x5u is caught.
                let given = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--only", "jku-header,x5u-header", "--attacker-host", "127.0.0.1", "--json",
                ])
                #expect(given.status == 1, "\(given.error)")
                #expect(names(try report(given.output), verdict: "hole") == ["jku-header", "x5u-header"])

                // An address that is not this machine's: one line, exit 64, nothing run.
                let unbindable = try await CLIProcess.run([
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken,
                    "--attacker-host", "192.0.2.1",
                ])
                #expect(unbindable.status == 64)
                #expect(
                    unbindable.error.hasPrefix("limited-login audit: cannot serve the attacker's key on --attacker-host 192.0.2.1: "),
                    "\(unbindable.error)")
                #expect(unbindable.error.split(separator: "\n").count == 1, "\(unbindable.error)")
            }
        }

        // The run itself: with the attacker out of the backend's reach, the two cases are not run, with the reason.
        let tokens = AuditTokenFactory(
            provider: AuditProvider(baseURL: "http://127.0.0.1:9", adminToken: "unused"), appID: app, user: "alice@example.com",
            attacker: try await AuditAttacker.serving { $0 })
        let backend = AuditBackend(
            template: try AuditRequestTemplate(
                endpoint: "http://backend.internal/me", method: "GET", headers: [], body: nil, contentType: nil, form: [], query: []),
            rule: try AuditAnswerRule(accepted: "2xx", refused: "4xx", pointer: nil), timeoutSeconds: 5)
        let run = AuditRun(backend: backend, tokens: tokens, nonceMode: .unknown, attackerUnreachable: reason) { _ in }
        for auditCase in [AuditCase.jkuHeader, .x5uHeader] {
            let result = try await run.run(auditCase)
            #expect(result.verdict == .notRun && result.detail == reason, "\(auditCase)")
        }
        await backend.shutdown()

        let bad = try await CLIProcess.run(["audit", "--endpoint", "http://127.0.0.1:9/me", "--attacker-host", "10.0.0.5:80/x"])
        #expect(bad.status == 64)
        #expect(
            bad.error
                == "limited-login audit: --attacker-host must be a host name or an IP address of this machine (no brackets, port or path), e.g. 192.168.1.20.\n"
        )
    }

    @Test("bad input: one line each, exit 64 for the command line and 3 when the backend or the provider cannot be reached")
    func badInput() async throws {
        let usage: [([String], String)] = [
            (
                ["--endpoint", "ftp://127.0.0.1/me"],
                "limited-login audit: --endpoint must be an http or https URL such as http://127.0.0.1:8000/me; got \"ftp://127.0.0.1/me\"\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--body", #"{"id_token":"x"}"#],
                "limited-login audit: No template carries {token}: put it in --body, --form, --query or --header, e.g. --body '{\"id_token\":\"{token}\"}'.\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--only", "rotten"],
                "limited-login audit: Unknown case \"rotten\" in --only; see --list-cases (e.g. alg-none, wrong-audience, expired).\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--header", "X-Token: {tokn}"],
                "limited-login audit: Unknown placeholder {tokn}; the templates take {token}, {nonce} and {raw_nonce}.\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--refused", "200"],
                "limited-login audit: --accepted and --refused both hold 200; a status can mean one of them only.\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--skip", "valid"],
                "limited-login audit: The good token (valid) cannot be skipped: every other verdict depends on it.\n"
            ),
            ([], "limited-login audit: Give --endpoint: the URL of your backend that takes a token, e.g. http://127.0.0.1:8000/me.\n"),
            (
                ["--endpoint", "http://127.0.0.1:99999/me"],
                "limited-login audit: --endpoint: the port of \"http://127.0.0.1:99999/me\" is not 1 to 65535\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--faults", "--fault-delay", "0"],
                "limited-login audit: --fault-delay must be above 0 and at most 300 seconds.\n"
            ),
            (
                ["--endpoint", "http://127.0.0.1:9/me", "--junit", "/nonexistent-folder/report.xml"],
                "limited-login audit: cannot write the JUnit report to /nonexistent-folder/report.xml\n"
            ),
        ]
        for (arguments, message) in usage {
            let run = try await CLIProcess.run(["audit"] + arguments + ["--admin-token", adminToken])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.error == message, "\(arguments)")
            #expect(run.output.isEmpty)
        }
        let list = try await CLIProcess.run(["audit", "--list-cases"])
        #expect(list.status == 0 && list.output.split(separator: "\n", omittingEmptySubsequences: false).count == 45 * 2 + 3)

        try await withProvider { provider in
            let down = try await CLIProcess.run([
                "audit", "--endpoint", "http://127.0.0.1:1/me", "--provider", provider.baseURL, "--admin-token", adminToken,
            ])
            #expect(down.status == 3)
            #expect(
                down.error.hasSuffix("limited-login audit: cannot reach the backend at http://127.0.0.1:1/me: connection refused\n"), "\(down.error)")
            let wrongToken = try await CLIProcess.run([
                "audit", "--endpoint", "http://127.0.0.1:1/me", "--provider", provider.baseURL, "--admin-token", "not-the-admin-token",
            ])
            #expect(wrongToken.status == 3)
            #expect(
                wrongToken.error.hasSuffix(
                    "limited-login audit: the provider at \(provider.baseURL) refused POST /_admin/tokens: The admin token is wrong.\n"),
                "\(wrongToken.error)")
        }
        let noProvider = try await CLIProcess.run([
            "audit", "--endpoint", "http://127.0.0.1:1/me", "--provider", "http://127.0.0.1:1", "--admin-token", adminToken,
        ])
        #expect(noProvider.status == 3)
        #expect(
            noProvider.error.hasSuffix(
                "limited-login audit: cannot reach the provider at http://127.0.0.1:1: connection refused (is it running? give its address with --provider)\n"
            ), "\(noProvider.error)")
    }
}

@Suite("CLI: the audit's documentation")
struct AuditDocumentationTests {
    @Test("docs/AUDIT.md lists every case with its severity, and every resilience fault")
    func everyCaseDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/AUDIT.md"), encoding: .utf8)
        let list = AuditCommand.caseList()
        for line in list.split(separator: "\n") where !line.hasPrefix(" ") && !line.hasPrefix("With --faults") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(guide.contains("| `\(parts[0])` | \(parts[1]) |"), "\(parts[0]) is not in docs/AUDIT.md's table")
        }
        for fault in AuditResilience.Fault.allCases {
            #expect(guide.contains("`\(fault.rawValue)`"), "\(fault.rawValue)")
        }
    }
}

/// Where a verifying backend reads the token and the nonce from.
private enum TokenPlace: Sendable { case jsonBody, form, query }

/// A backend that verifies with this project's verifier, reading `id_token` and `nonce` from `place` (a
/// query takes `token`), and checking the nonce with `nonceCheck` (given the nonce the request carried;
/// nil accepts either check passing, the lenient `raw or hashed` comparison).
private func verifyingBackend(
    _ verifier: TokenVerifier, place: TokenPlace, nonceCheck: @escaping @Sendable (String) -> [NonceCheck]
) -> Router<BasicRequestContext> {
    let router = Router()
    let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
        var fields: [String: String] = [:]
        switch place {
        case .query:
            for (name, value) in request.uri.queryParameters { fields[String(name)] = String(value) }
            fields["id_token"] = fields["token"]
        case .jsonBody:
            let body = try await request.body.collect(upTo: 1 << 20)
            if let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: String] { fields = object }
        case .form:
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            for item in URLComponents(string: "?" + body)?.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        }
        var accepted = false
        if let token = fields["id_token"] {
            for check in nonceCheck(fields["nonce"] ?? "") where !accepted {
                accepted = (try? await verifier.verify(token, nonce: check)) != nil
            }
        }
        return Response(status: accepted ? .ok : .unauthorized)
    }
    router.post("/login", use: handler)
    router.get("/login", use: handler)
    return router
}

@Suite("CLI: limited-login audit's templates and nonces")
struct AuditTemplateTests {
    static let nonceCases = "wrong-nonce,no-nonce,raw-nonce-unhashed,alg-none"

    private static func audit(_ provider: ServerProcess, port: Int, _ arguments: [String]) async throws -> (Int32, JSONObject) {
        let run = try await CLIProcess.run(
            [
                "audit", "--endpoint", "http://127.0.0.1:\(port)/login", "--provider", provider.baseURL, "--admin-token", adminToken,
                "--only", nonceCases, "--json",
            ] + arguments)
        return (run.status, try report(run.output))
    }

    private static func verifier(_ provider: ServerProcess) async throws -> TokenVerifier {
        let discovery = try #require(URL(string: provider.baseURL + "/.well-known/openid-configuration"))
        return try await TokenVerifier.provider(discoveryURL: discovery, appID: app)
    }

    @Test("a JSON body with {raw_nonce}: a backend hashing it passes; one ignoring the nonce, or also taking it unhashed, is named")
    func jsonBodyWithRawNonce() async throws {
        try await withProvider { provider in
            let verifier = try await Self.verifier(provider)
            let body = ["--body", #"{"id_token":"{token}","nonce":"{raw_nonce}"}"#]
            try await withLoopbackServer(verifyingBackend(verifier, place: .jsonBody) { [.sha256OfRawNonce($0)] }) { port in
                let (status, result) = try await Self.audit(provider, port: port, body)
                #expect(status == 0)
                #expect(names(result, verdict: "ok") == ["valid", "wrong-nonce", "no-nonce", "raw-nonce-unhashed", "alg-none"])
            }
            try await withLoopbackServer(verifyingBackend(verifier, place: .jsonBody) { _ in [.notChecked] }) { port in
                let (status, result) = try await Self.audit(provider, port: port, body)
                #expect(status == 1)
                // Unchecked, but still required: this project's verifier refuses a token without a nonce claim.
                #expect(names(result, verdict: "hole") == ["wrong-nonce", "raw-nonce-unhashed"])
                #expect(names(result, verdict: "ok").contains("no-nonce"))
            }
            try await withLoopbackServer(verifyingBackend(verifier, place: .jsonBody) { [.sha256OfRawNonce($0), .exact($0)] }) { port in
                let (status, result) = try await Self.audit(provider, port: port, body)
                #expect(status == 1)
                #expect(names(result, verdict: "hole") == ["raw-nonce-unhashed"], "comparing the raw nonce as it comes proves nothing")
            }
        }
    }

    @Test("a form with {nonce}, and a query with a fixed --nonce: the nonce cases run; raw-nonce-unhashed needs a raw nonce")
    func formAndQuery() async throws {
        try await withProvider { provider in
            let verifier = try await Self.verifier(provider)
            try await withLoopbackServer(verifyingBackend(verifier, place: .form) { [.exact($0)] }) { port in
                let (status, result) = try await Self.audit(provider, port: port, ["--form", "id_token={token}", "--form", "nonce={nonce}"])
                #expect(status == 0)
                #expect(names(result, verdict: "ok") == ["valid", "wrong-nonce", "no-nonce", "alg-none"])
                #expect(names(result, verdict: "not-run") == ["raw-nonce-unhashed"])
            }
            try await withLoopbackServer(verifyingBackend(verifier, place: .query) { _ in [.exact("fixed-nonce-1")] }) { port in
                let (status, result) = try await Self.audit(provider, port: port, ["--query", "token={token}", "--nonce", "fixed-nonce-1"])
                #expect(status == 0)
                #expect(names(result, verdict: "ok") == ["valid", "wrong-nonce", "no-nonce", "alg-none"])
            }
        }
    }
}

@Suite("CLI: scenario fault and keys rotate --drop-previous")
struct FaultCommandTests {
    @Test("scenario fault sets a fault the key endpoints answer with, scenario faults lists it, clear --faults removes it; bad flags are one line")
    func faultCommands() async throws {
        try await withProvider { provider in
            let environment = ["LIMITED_LOGIN_PROVIDER": provider.baseURL, "LIMITED_LOGIN_ADMIN_TOKEN": adminToken]
            let set = try await CLIProcess.run(
                ["scenario", "fault", "--endpoint", "keys", "--status", "502", "--count", "2"], environment: environment)
            #expect(set.status == 0, "\(set.error)")
            #expect(set.output == "set fault 1: certs,discovery,jwks: status 502, 2 requests left\n")
            let jwks = try await HTTPExchange.send(provider.baseURL + "/.well-known/oauth/openid/jwks/")
            #expect(jwks.status == 502)
            let listed = try await CLIProcess.run(["scenario", "faults"], environment: environment)
            #expect(listed.output == "1  certs,discovery,jwks: status 502, 1 request left\n")
            let cleared = try await CLIProcess.run(["scenario", "clear", "--faults"], environment: environment)
            #expect(cleared.output == "removed 1 fault(s)\n")
            #expect(try await HTTPExchange.send(provider.baseURL + "/.well-known/oauth/openid/jwks/").status == 200)

            let refused = try await CLIProcess.run(["scenario", "fault", "--endpoint", "discovery", "--answer", "rotated"], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.error == "limited-login: the provider refused: \"answer\": \"rotated\" is for the key sets only: jwks and certs.\n")
            let nothing = try await CLIProcess.run(["scenario", "fault", "--endpoint", "jwks"], environment: environment)
            #expect(nothing.status == 64 && nothing.error.contains("Give --status CODE, --answer KIND or --delay SECONDS."))

            let drop = try await CLIProcess.run(["keys", "rotate", "--publish-delay", "0", "--drop-previous", "--json"], environment: environment)
            #expect(drop.status == 0, "\(drop.error)")
            let kid = try report(drop.output)["kid"]?.stringValue
            let set2 = try JSONWebKeySet(parsing: Array(try await HTTPExchange.send(provider.baseURL + "/.well-known/oauth/openid/jwks/").body.utf8))
            #expect(set2.keys.map(\.keyID) == [kid ?? "?"])
            let delayed = try await CLIProcess.run(["keys", "rotate", "--drop-previous"], environment: environment)
            #expect(delayed.status == 64 && delayed.error.contains("--drop-previous needs --publish-delay 0 (the new key must sign at once)."))
        }
    }
}
