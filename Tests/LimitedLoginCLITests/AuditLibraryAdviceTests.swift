import Foundation
import Hummingbird
import LimitedLoginAudit
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import limited_login

#if canImport(FoundationXML)
import FoundationXML
#endif

private let adminToken = "audit-library-admin-token-for-tests"
private let app = "1000000000000001"

/// A provider with this suite's admin token (``withAuditProvider(adminToken:_:)``).
private func withProvider<T: Sendable>(_ body: @Sendable (ServerProcess) async throws -> T) async throws -> T {
    try await withAuditProvider(adminToken: adminToken, body)
}

/// The backend a PyJWT user writes from the docs without `require`, in spirit: no signature check, and a token
/// without `exp` never expires (``decodingOnlyAuditBackend(app:pointerStyle:)``).
private func decodingOnlyBackend() -> Router<BasicRequestContext> { decodingOnlyAuditBackend(app: app) }

@Suite("audit --library: advice per library")
struct AuditLibraryAdviceTests {
    @Test("an unknown --library is one line listing the known ones, exit 64, for a run and for --list-cases alike")
    func unknownLibrary() async throws {
        let expected =
            "limited-login audit: Unknown library \"jwt-go\" in --library; the known ones: pyjwt, authlib, python-jose, joserfc, jwcrypto, python-social-auth, django-allauth, jose-node, go-oidc, golang-jwt, ruby-jwt, jsonwebtoken-rust, erlang-jose, limited-login-vapor, limited-login-hummingbird.\n"
        let run = try await CLIProcess.run(["audit", "--endpoint", "http://127.0.0.1:9/me", "--library", "jwt-go", "--admin-token", adminToken])
        #expect(run.status == 64)
        #expect(run.error == expected)
        #expect(run.output.isEmpty)
        let list = try await CLIProcess.run(["audit", "--list-cases", "--library", "jwt-go"])
        #expect(list.status == 64 && list.error == expected && list.output.isEmpty)

        let listed = try await CLIProcess.run(["audit", "--list-cases", "--library", "pyjwt"])
        let lines = listed.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(listed.status == 0 && lines.count == AuditCase.allCases.count * 3 + 3, "a third line per case")
        #expect(
            lines.contains {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix(
                    #"pyjwt: PyJWT checks exp only when present; require it: `options={"require": ["exp""#)
            })
    }

    @Test("--library pyjwt against a backend that lets a token without exp in: the hole's advice names require with exp, in text, JSON and JUnit")
    func pyjwtAdviceInTheReport() async throws {
        try await withProvider { provider in
            try await withLoopbackServer(decodingOnlyBackend()) { port in
                let base = [
                    "audit", "--endpoint", "http://127.0.0.1:\(port)/me", "--provider", provider.baseURL, "--admin-token", adminToken, "--only",
                    "no-exp,too-old",
                ]
                let junit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-library-\(UUID().uuidString).xml")
                let text = try await CLIProcess.run(base + ["--library", "pyjwt", "--junit", junit.path])
                #expect(text.status == 1, "\(text.error)")
                let lines = text.output.split(separator: "\n").map(String.init)
                let hole = try #require(lines.firstIndex { $0.hasPrefix("HOLE no-exp (accepted 200)") }, "\(text.output)")
                #expect(lines[hole + 1].hasPrefix("  pyjwt: PyJWT checks exp only when present; require it: `options={\"require\": [\"exp\""))
                #expect(lines[hole + 1].hasSuffix("[PyJWT docs, jwt.decode options require]"))
                let warning = try #require(lines.firstIndex { $0.hasPrefix("WARNING too-old (accepted 200)") }, "\(text.output)")
                #expect(lines[warning + 1].hasPrefix("  pyjwt: Require iat with `options={\"require\": [\"iat\"]}`"))
                #expect(!text.output.contains("Advice for your library"), "the hint is for runs without --library")
                #expect(lines.last == "FAILED: the backend accepted 1 token it must refuse: no-exp.")

                let document = try XMLDocument(contentsOf: junit)
                let failure = try #require(try document.nodes(forXPath: "//testcase[@name='no-exp']/failure").first)
                #expect(failure.stringValue?.contains("pyjwt: PyJWT checks exp only when present") == true)

                let json = try await CLIProcess.run(base + ["--library", "pyjwt", "--json"])
                let report = try #require(try StrictJSONParser(maximumSize: 1 << 20).parse(Array(json.output.utf8)).objectValue)
                #expect(report["library"] == "pyjwt")
                let cases = report["cases"]?.arrayValue?.compactMap(\.objectValue) ?? []
                let noExp = try #require(cases.first { $0["name"] == "no-exp" })
                #expect(noExp["advice"] == "refuse a token without exp", "the generic advice stays beside it")
                let forLibrary = try #require(noExp["advice_for_library"]?.stringValue)
                #expect(forLibrary.contains(#"options={"require": ["exp", "iat", "iss", "aud", "sub"]}"#), "\(forLibrary)")

                // Without --library: the generic advice, and the hint naming every library, just before the verdict.
                let plain = try await CLIProcess.run(base)
                let plainLines = plain.output.split(separator: "\n").map(String.init)
                #expect(!plain.output.contains("  pyjwt:"))
                #expect(plainLines.suffix(2).first == "Advice for your library: --library " + AuditLibrary.names)
                #expect(AuditLibrary.names.hasPrefix("pyjwt|authlib|python-jose|"))
                let plainJSON = try await CLIProcess.run(base + ["--json"])
                #expect(!plainJSON.output.contains("advice_for_library"))
            }
        }
    }

    @Test("docs/AUDIT.md names every library --library takes")
    func documented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/AUDIT.md"), encoding: .utf8)
        for library in AuditLibrary.allCases { #expect(guide.contains("`\(library.rawValue)`"), "\(library.rawValue)") }
    }
}
