import Foundation
import LimitedLoginJOSE
import Testing

@testable import LimitedLoginAudit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The audit's rules read directly, without a backend or the CLI: how an answer is read, the verdict each
/// case gets, what fails the run, and a report that cannot mislead (issue #57, items 2 and 5).
@Suite("Audit: rules, verdicts and the report")
struct AuditRuleTests {
    @Test("an answer is accepted, refused or neither by its status; 429 is never a refusal")
    func statuses() throws {
        let rule = try AuditAnswerRule(accepted: "200-299", refused: "400,401,403", pointer: nil)
        #expect(rule.outcome(status: 200, body: []) == .accepted)
        #expect(rule.outcome(status: 204, body: []) == .accepted)
        #expect(rule.outcome(status: 401, body: []) == .refused)
        #expect(rule.outcome(status: 500, body: []) == .other)
        #expect(rule.outcome(status: 302, body: []) == .other)
        #expect(rule.outcome(status: 429, body: []) == .other)
    }

    @Test("with --accepted-pointer an accepted status counts only when the JSON body holds the pointer")
    func pointer() throws {
        let equals = try AuditAnswerRule(accepted: "200", refused: "401", pointer: "/user/ok=true")
        #expect(equals.outcome(status: 200, body: Array(#"{"user": {"ok": true}}"#.utf8)) == .accepted)
        #expect(equals.outcome(status: 200, body: Array(#"{"user": {"ok": false}}"#.utf8)) == .refused)
        #expect(equals.outcome(status: 200, body: Array("<html>".utf8)) == .refused)
        let present = try AuditAnswerRule(accepted: "200", refused: "401", pointer: "/id")
        #expect(present.outcome(status: 200, body: Array(#"{"id": "1"}"#.utf8)) == .accepted)
        #expect(present.outcome(status: 200, body: Array(#"{"id": null}"#.utf8)) == .refused)
    }

    @Test("bad rules are refused with the option named")
    func badRules() {
        let overlap = #expect(throws: AuditUsageError.self) { try AuditAnswerRule(accepted: "200,401", refused: "401", pointer: nil) }
        #expect(overlap?.message == "--accepted and --refused both hold 401; a status can mean one of them only.")
        let pointer = #expect(throws: AuditUsageError.self) { try AuditAnswerRule(accepted: "200", refused: "401", pointer: "ok") }
        #expect(pointer?.message == "--accepted-pointer must be a JSON pointer such as /user/id or /ok=true; got \"ok\"")
    }

    static func result(_ auditCase: AuditCase, _ outcome: AuditOutcome, status: Int?, detail: String? = nil) -> AuditResult {
        AuditResult(
            name: auditCase.rawValue, severity: auditCase.severity, summary: auditCase.summary, rule: auditCase.rule, advice: auditCase.advice,
            outcome: outcome, status: status, detail: detail)
    }

    @Test("each severity and answer gives one verdict; a must-refuse token not seen refused fails the run")
    func verdicts() {
        let mustRefuse = AuditCase.allCases.first { $0.severity == .mustRefuse }!
        let shouldRefuse = AuditCase.allCases.first { $0.severity == .shouldRefuse }!
        #expect(Self.result(.valid, .accepted, status: 200).verdict == .ok)
        #expect(Self.result(.valid, .refused, status: 401).verdict == .fail)
        #expect(Self.result(mustRefuse, .refused, status: 401).verdict == .ok)
        #expect(Self.result(mustRefuse, .accepted, status: 200).verdict == .hole)
        #expect(Self.result(shouldRefuse, .accepted, status: 200).verdict == .warning)
        #expect(Self.result(mustRefuse, .notRun, status: nil).verdict == .notRun)
        let unclear = Self.result(mustRefuse, .other, status: 500)
        #expect(unclear.verdict == .unclear && unclear.failsTheRun)
        #expect(!Self.result(shouldRefuse, .other, status: 500).failsTheRun)
        #expect(Self.result(.valid, .refused, status: 401).failsTheRun)
    }

    @Test("the report's FAILED line and summary.failed count holes and unrefused tokens alike; exit 1")
    func failedCount() throws {
        let report = AuditReport(
            endpoint: "http://127.0.0.1:1/me", provider: "http://127.0.0.1:2", appID: "1",
            results: [
                Self.result(.valid, .accepted, status: 200), Self.result(.noExp, .accepted, status: 200),
                Self.result(.algNone, .other, status: 500), Self.result(.expired, .refused, status: 401),
            ])
        #expect(report.exitStatus == 1)
        #expect(report.verdictLine.contains("no-exp") && report.verdictLine.contains("alg-none") && !report.verdictLine.contains("expired"))
        let summary = try #require(report.json.objectValue?["summary"]?.objectValue)
        #expect(summary["failed"] == .number(2))
    }

    @Test("control bytes and characters XML cannot hold never reach the text or the JUnit file raw")
    func escaping() throws {
        let hostile = "bell\u{07} escape\u{1B}[31m nul\u{0} ffff\u{FFFF} <tag> & \"quote\""
        let report = AuditReport(
            endpoint: "http://127.0.0.1:1/me", provider: "http://127.0.0.1:2", appID: "1",
            results: [Self.result(.valid, .refused, status: 401, detail: hostile)])
        for scalar in report.text.unicodeScalars where scalar != "\n" {
            #expect(scalar.value >= 0x20 && scalar.value != 0x7F && scalar.value != 0xFFFF, "\(scalar.value) in the text")
        }
        let document = try XMLDocument(data: Data(report.junit.utf8))
        #expect(try document.nodes(forXPath: "//testcase").count == 1)
        #expect(try document.nodes(forXPath: "//failure").count == 1)
    }
}
