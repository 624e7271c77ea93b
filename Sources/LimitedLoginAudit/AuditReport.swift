import Foundation
import LimitedLoginJOSE
import LimitedLoginProvider

/// The audit's results as a table for people, a JSON document, or JUnit XML for CI test reports.
package struct AuditReport: Sendable {
    package let endpoint: String
    package let provider: String
    package let appID: String
    package let results: [AuditResult]
    /// `--strict`: a warning or an unclear answer fails the run too.
    package var strict = false
    /// `--library`: each hole and warning also names the change in this library.
    package var library: AuditLibrary?

    package init(endpoint: String, provider: String, appID: String, results: [AuditResult], strict: Bool = false, library: AuditLibrary? = nil) {
        (self.endpoint, self.provider, self.appID, self.results, self.strict, self.library) = (endpoint, provider, appID, results, strict, library)
    }

    package func count(_ verdict: AuditVerdict) -> Int { results.filter { $0.verdict == verdict }.count }

    /// 0 when the good token was accepted and every must-refuse token refused (with `strict`, when every case
    /// went as it should); 1 otherwise: a must-refuse token accepted, or answered with neither an acceptance nor
    /// a refusal (a 500, a redirect, no answer).
    package var exitStatus: Int32 {
        results.contains { $0.failsTheRun || (strict && ($0.verdict == .warning || $0.verdict == .unclear)) } ? 1 : 0
    }

    /// `31 cases: 27 ok, 1 hole, 2 warnings, 0 unclear, 1 not run`.
    package var summaryLine: String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        var parts = [
            "\(count(.ok)) ok", plural(count(.hole), "hole"), plural(count(.warning), "warning"), "\(count(.unclear)) unclear",
            "\(count(.notRun)) not run",
        ]
        if count(.fail) > 0 { parts.insert("\(count(.fail)) good token\(count(.fail) == 1 ? "" : "s") refused", at: 1) }
        return "\(results.count) cases: " + parts.joined(separator: ", ")
    }

    /// The table, the summary, and one paragraph per case that is not ok.
    package var text: String {
        var lines = ["Audit of \(endpoint) (app \(appID); tokens from \(provider))", ""]
        let headers = ["CASE", "SEVERITY", "EXPECTED", "GOT", "VERDICT"]
        let rows = results.map { [$0.name, $0.severity.rawValue, $0.expected.rawValue, $0.got, $0.verdict.rawValue] }
        let widths = headers.indices.map { column in ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0 }
        for row in [headers] + rows {
            lines.append(
                row.indices.map { $0 == row.count - 1 ? row[$0] : row[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined())
        }
        lines.append("")
        lines.append(summaryLine + ".")
        for result in results where result.verdict != .ok && result.verdict != .notRun {
            var paragraph = "\(result.verdict.rawValue.uppercased()) \(result.name) (\(result.got)): \(result.summary). "
            paragraph += "A backend should \(result.advice) [\(result.rule)]."
            // Made printable when read from the backend too (``AuditBackend``); here whatever wrote it.
            if let detail = result.detail { paragraph += " " + Self.printable(detail) }
            lines.append(paragraph)
            if let library { lines.append("  \(library.rawValue): " + library.adviceLine(caseName: result.name, generic: result.advice)) }
        }
        let notRun = results.filter { $0.verdict == .notRun }
        for reason in Set(notRun.compactMap(\.detail)).sorted() {
            lines.append(
                "not run: " + notRun.filter { $0.detail == reason }.map(\.name).joined(separator: ", ") + ": " + Self.printable(reason) + ".")
        }
        if library == nil, results.contains(where: { $0.verdict != .ok && $0.verdict != .notRun }) {
            // Just before the verdict, which stays the last line.
            lines.append("Advice for your library: --library \(AuditLibrary.names)")
        }
        lines.append(verdictLine)
        return lines.joined(separator: "\n")
    }

    /// The last line: PASSED, or FAILED naming every case that failed the run (refused good tokens, holes, and
    /// must-refuse tokens answered with neither an acceptance nor a refusal), so that none hides behind another.
    package var verdictLine: String {
        func tokens(_ count: Int) -> String { "\(count) token\(count == 1 ? "" : "s")" }
        let holes = results.filter { $0.verdict == .hole }.map(\.name)
        let fails = results.filter { $0.verdict == .fail }.map(\.name)
        let unrefused = results.filter { $0.verdict == .unclear && $0.failsTheRun }
        var parts: [String] = []
        if !holes.isEmpty { parts.append("accepted \(tokens(holes.count)) it must refuse: \(holes.joined(separator: ", "))") }
        if !unrefused.isEmpty {
            let cases = unrefused.map { "\($0.name) (\($0.got))" }.joined(separator: ", ")
            parts.append("did not refuse \(tokens(unrefused.count)) it must refuse: \(cases); a refusal is a status in --refused (default 4xx)")
        }
        if !fails.isEmpty {
            let others = parts.isEmpty ? "" : " Also failing: " + (holes + unrefused.map(\.name)).joined(separator: ", ") + "."
            return
                "FAILED: the backend refused a good token (\(fails.joined(separator: ", "))); the other verdicts prove nothing until it accepts one."
                + others
        }
        if !parts.isEmpty { return "FAILED: the backend " + parts.joined(separator: "; and ") + "." }
        if strict, exitStatus != 0 {
            let lenient = results.filter { $0.verdict == .warning || $0.verdict == .unclear }.map(\.name)
            return "FAILED (--strict): \(lenient.joined(separator: ", ")) did not go as they should."
        }
        return "PASSED: the backend accepted the good token and refused every token it must refuse."
    }

    package var json: JSONValue {
        .object([
            "endpoint": .string(endpoint), "provider": .string(provider), "app_id": .string(appID),
            "exit_status": .number(Double(exitStatus)), "library": library.map { .string($0.rawValue) } ?? .null,
            "summary": .object([
                "cases": .number(Double(results.count)), "ok": .number(Double(count(.ok))), "holes": .number(Double(count(.hole))),
                "warnings": .number(Double(count(.warning))), "unclear": .number(Double(count(.unclear))),
                "not_run": .number(Double(count(.notRun))), "good_tokens_refused": .number(Double(count(.fail))),
                // The cases that failed the run (what makes the exit status 1).
                "failed": .number(Double(results.filter { $0.failsTheRun || (strict && ($0.verdict == .warning || $0.verdict == .unclear)) }.count)),
            ]),
            "cases": .array(results.map { $0.json(library: library) }),
        ])
    }

    /// JUnit XML: one test case per audit case; holes and refused good tokens are failures (with `strict`,
    /// warnings and unclear answers too, as they fail the run), cases not run are skipped, warnings and
    /// unclear answers are otherwise written to the case's output.
    package var junit: String {
        let failures = results.filter { $0.failsTheRun || (strict && ($0.verdict == .warning || $0.verdict == .unclear)) }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="limited-login audit">"# + "\n"
        xml +=
            "  <testsuite name=\"\(Self.escape("audit of " + endpoint))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(count(.notRun))\">\n"
        for result in results {
            xml += "    <testcase classname=\"limited-login.audit.\(result.severity.rawValue)\" name=\"\(Self.escape(result.name))\">"
            var explanation = "\(result.summary). A backend should \(result.advice) [\(result.rule)]." + (result.detail.map { " " + $0 } ?? "")
            if let library { explanation += "\n\(library.rawValue): " + library.adviceLine(caseName: result.name, generic: result.advice) }
            switch result.verdict {
            case .hole:
                xml +=
                    "\n      <failure type=\"hole\" message=\"\(Self.escape("accepted (\(result.got)) a token it must refuse"))\">\(Self.escape(explanation))</failure>\n    "
            case .fail:
                xml +=
                    "\n      <failure type=\"good-token-refused\" message=\"\(Self.escape("refused a good token (\(result.got))"))\">\(Self.escape(explanation))</failure>\n    "
            case .notRun:
                xml += "\n      <skipped message=\"\(Self.escape(result.detail ?? "not run"))\"/>\n    "
            case .unclear where result.failsTheRun:
                xml +=
                    "\n      <failure type=\"not-refused\" message=\"\(Self.escape("did not refuse (\(result.got)) a token it must refuse"))\">\(Self.escape(explanation))</failure>\n    "
            case .warning where strict, .unclear where strict:
                xml +=
                    "\n      <failure type=\"\(result.verdict.rawValue)\" message=\"\(Self.escape(result.verdict.rawValue + " under --strict (" + result.got + ")"))\">\(Self.escape(explanation))</failure>\n    "
            case .warning, .unclear:
                xml += "\n      <system-out>\(Self.escape(result.verdict.rawValue + " (" + result.got + "): " + explanation))</system-out>\n    "
            case .ok:
                break
            }
            xml += "</testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// The provider's HTML escaping, after replacing what XML 1.0 cannot hold (control characters, U+FFFE and
    /// U+FFFF) or a terminal would act on (DEL and the C1 controls).
    package static func escape(_ text: String) -> String {
        HTMLEscaping.escape(printable(text, keepingLineBreaks: true))
    }

    /// `text` with every control character (but tab and, if asked, line breaks), DEL, the C1 controls, U+FFFE
    /// and U+FFFF replaced by `?`: a backend's answer reaches the terminal, the JSON and the JUnit file
    /// without an escape sequence or a character XML refuses.
    package static func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let control = value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFFFE || value == 0xFFFF
            let allowed = scalar == "\t" || (keepingLineBreaks && (scalar == "\n" || scalar == "\r"))
            kept.append(control && !allowed ? "?" : scalar)
        }
        return String(kept)
    }
}
