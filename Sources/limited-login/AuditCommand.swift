import ArgumentParser
import Foundation
import LimitedLoginAudit
import LimitedLoginJOSE
import LimitedLoginProvider

/// `limited-login audit`: send a good token and every bad one to an app's own backend, and report which
/// bad ones it wrongly accepts.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Send a good ID token and every bad one to your backend's endpoint, and report each bad token it accepts.",
        discussion: """
            The backend must trust the provider given with --provider (discovery document \
            PROVIDER/.well-known/openid-configuration, issuer PROVIDER; other setups: docs/AUDIT.md). The audit mints \
            each token through that provider's admin API, sends it to --endpoint and reads the answer: a status in \
            --accepted is accepted, one in --refused refused, anything else unclear.

            Each case is must-refuse (accepted: a hole: a forged, expired, foreign or unsigned token), should-refuse \
            (accepted: a warning) or, for the good token, must-accept. The nonce cases run only when the audit knows \
            how the backend learns the nonce: --nonce, --raw-nonce, or {nonce} / {raw_nonce} in a template. \
            docs/AUDIT.md has every case and, for --faults, every fault.

            Exit status: 0 when the good token was accepted and every must-refuse case refused (see --strict), 1 when \
            a must-refuse token was accepted or not refused (a 500, a redirect, no answer) or the good token refused, 3 \
            when the audit could not run (backend or provider unreachable), 64 for a bad command line.

            Examples:
              limited-login audit --endpoint http://127.0.0.1:8000/me --provider http://127.0.0.1:8080 --admin-token "$ADMIN"
              limited-login audit --endpoint http://127.0.0.1:8000/login --method POST --body '{"id_token":"{token}","nonce":"{raw_nonce}"}'
              limited-login audit --endpoint http://127.0.0.1:8000/login --method POST --form access_token={token} --nonce n-1
              limited-login audit --endpoint http://127.0.0.1:8000/me --header 'X-Nonce: {nonce}' --junit audit.xml
              limited-login audit --endpoint http://127.0.0.1:8000/me --accepted 200 --refused 401,403 --accepted-pointer /authenticated=true
              limited-login audit --endpoint http://127.0.0.1:8000/me --only alg-none,wrong-audience --json
              limited-login audit --endpoint http://127.0.0.1:8000/me --query access_token={token} --raw-nonce r-1 --app-id 1234 --user bob@example.com
              limited-login audit --endpoint https://127.0.0.1:8443/me --ca-file ca.pem --faults --fault-delay 5 --recovery-window 60 --skip huge-token --timeout 20
              limited-login audit --endpoint http://127.0.0.1:8000/me --library pyjwt
              limited-login audit --list-cases
            """
    )

    @Option(help: ArgumentHelp("The backend's URL that takes a token, e.g. http://127.0.0.1:8000/me.", valueName: "url"))
    var endpoint: String?

    @Option(help: "The HTTP method (default GET, or POST with --body or --form).")
    var method: String?

    @Option(
        help: ArgumentHelp(
            "A header, 'Name: value' (repeatable); default 'Authorization: Bearer {token}' when no template has {token}.", valueName: "header"))
    var header: [String] = []

    @Option(help: ArgumentHelp("The request body, e.g. '{\"id_token\":\"{token}\",\"nonce\":\"{raw_nonce}\"}'.", valueName: "template"))
    var body: String?

    @Option(name: .customLong("content-type"), help: "The body's Content-Type (default: application/json for a body starting with {, else a form).")
    var contentType: String?

    @Option(help: ArgumentHelp("A form field of the body, name=value (repeatable), e.g. --form id_token={token}.", valueName: "field"))
    var form: [String] = []

    @Option(help: ArgumentHelp("A query parameter, name=value (repeatable), e.g. --query token={token}.", valueName: "parameter"))
    var query: [String] = []

    @Option(name: .customLong("app-id"), help: "The app the backend serves: the audience of the good token.")
    var appID = "1000000000000001"

    @Option(help: "The test user the tokens are for: an ID or an email.")
    var user = "alice@example.com"

    @Option(help: ArgumentHelp("The nonce the backend expects (it is configured with it): every token carries it.", valueName: "nonce"))
    var nonce: String?

    @Option(
        name: .customLong("raw-nonce"),
        help: ArgumentHelp("A raw nonce the backend hashes (SHA-256 hex) and compares with the token's.", valueName: "raw"))
    var rawNonce: String?

    @Option(help: ArgumentHelp("The statuses that mean accepted: 2xx, 200,201 or 200-204.", valueName: "statuses"))
    var accepted = "2xx"

    @Option(help: ArgumentHelp("The statuses that mean refused.", valueName: "statuses"))
    var refused = "4xx"

    @Option(
        name: .customLong("accepted-pointer"),
        help: ArgumentHelp(
            "Also require this in an accepted answer's JSON: a JSON pointer, present and not null or false, or POINTER=VALUE, e.g. /ok=true.",
            valueName: "pointer"))
    var acceptedPointer: String?

    @Option(help: ArgumentHelp("Only these cases (comma-separated names; see --list-cases). The good token always runs.", valueName: "names"))
    var only: String?

    @Option(help: ArgumentHelp("Leave out these cases (comma-separated names).", valueName: "names"))
    var skip: String?

    @Flag(help: "Add the resilience cases: the provider's key endpoints fail and recover, its keys rotate (changes the provider's keys).")
    var faults = false

    @Option(
        name: .customLong("fault-delay"), help: ArgumentHelp("Seconds the keys-timeout fault holds each key-endpoint answer.", valueName: "seconds"))
    var faultDelay: Double = 10

    @Option(
        name: .customLong("recovery-window"),
        help: ArgumentHelp(
            "With --faults, seconds a backend gets to accept good tokens again after a fault or a rotation (key-set caches wait out a cooldown, often 30 s).",
            valueName: "seconds"))
    var recoveryWindow: Double = 40

    @Option(
        name: .customLong("attacker-host"),
        help: ArgumentHelp(
            "An address of this machine the backend can reach, where the jku and x5u cases serve the attacker's key (default 127.0.0.1: for a backend elsewhere those cases are not run).",
            valueName: "address"))
    var attackerHost: String?

    @Option(help: ArgumentHelp("Seconds to wait for each answer of the backend.", valueName: "seconds"))
    var timeout = 30

    @Option(
        help: ArgumentHelp(
            "Also give each hole's and warning's fix in your JWT library: pyjwt, authlib, python-jose, joserfc, jwcrypto, python-social-auth, django-allauth, jose-node, go-oidc, golang-jwt, ruby-jwt, jsonwebtoken-rust, erlang-jose, limited-login-vapor or limited-login-hummingbird.",
            valueName: "name"))
    var library: String?

    @Flag(help: "Fail (exit 1) on a warning or an unclear answer too: every case must go as it should.")
    var strict = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Also write the report as JUnit XML to this file (for CI test reports).", valueName: "file"))
    var junit: String?

    @Flag(name: .customLong("list-cases"), help: "List every case (name, severity, what the token is, the rule) and exit.")
    var listCases = false

    @OptionGroup var connection: AdminConnection

    func run() async throws {
        if listCases {
            let chosen: AuditLibrary?
            do { chosen = try library.map { name throws(AuditUsageError) in try AuditLibrary.named(name) } } catch {
                throw CommandFailure.fail("limited-login audit: " + error.message, code: 64)
            }
            printLine(Self.caseList(library: chosen))
            return
        }
        let setup: Setup
        do { setup = try prepare() } catch { throw CommandFailure.fail("limited-login audit: " + error.message, code: 64) }
        let base = try connection.baseURL()
        let adminToken = try connection.token()
        let provider = AuditProvider(baseURL: base, adminToken: adminToken)
        if let junit {
            // Checked before the run (which can take minutes), not after it.
            guard FileManager.default.createFile(atPath: junit, contents: nil) else {
                throw CommandFailure.fail("limited-login audit: cannot write the JUnit report to \(junit)", code: 64)
            }
        }
        let backend = AuditBackend(template: setup.template, rule: setup.rule, timeoutSeconds: timeout)
        let attackerUnreachable = AuditAttacker.unreachableReason(endpointHost: setup.template.endpoint.host, attackerHost: attackerHost)
        let total = setup.cases.count + (faults ? AuditResilience.caseCount : 0)
        let report: AuditReport
        do {
            report = try await AuditAttacker.serving(host: attackerHost ?? "127.0.0.1") { attacker in
                let tokens = AuditTokenFactory(provider: provider, appID: appID, user: user, attacker: attacker)
                let run = AuditRun(backend: backend, tokens: tokens, nonceMode: setup.nonceMode, attackerUnreachable: attackerUnreachable) {
                    printErrorLine($0)
                }
                printErrorLine("limited-login audit: \(total) cases against \(setup.template.endpoint.absoluteString)")
                var results = try await run.run(setup.cases, total: total)
                if faults {
                    let resilience = AuditResilience(run: run, provider: provider, faultDelay: faultDelay, recoveryWindow: recoveryWindow)
                    results += try await resilience.results(startingAt: results.count, total: total)
                }
                return AuditReport(
                    endpoint: setup.template.endpoint.absoluteString, provider: base, appID: appID, results: results, strict: strict,
                    library: setup.library)
            }
        } catch let failure as AuditFailure {
            await backend.shutdown()
            throw CommandFailure.fail("limited-login audit: " + failure.message, code: 3)
        } catch LoopbackServerError.cannotBind(let reason) {
            await backend.shutdown()
            throw CommandFailure.fail(
                "limited-login audit: cannot serve the attacker's key on --attacker-host \(attackerHost ?? "127.0.0.1"): \(reason)", code: 64)
        } catch {
            await backend.shutdown()
            throw CommandFailure.fail("limited-login audit: " + String(describing: error), code: 3)
        }
        await backend.shutdown()
        if let junit {
            do { try Data(report.junit.utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                throw CommandFailure.fail("limited-login audit: cannot write the JUnit report to \(junit): \(error.localizedDescription)", code: 3)
            }
        }
        printLine(json ? JSONSerializer.prettyPrinted(report.json) : report.text)
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// What ``prepare()`` reads from the command line.
    typealias Setup = (
        template: AuditRequestTemplate, rule: AuditAnswerRule, cases: [AuditCase], nonceMode: AuditNonceMode, library: AuditLibrary?
    )

    /// The command line read: the request template, how answers are read, the cases, the nonce mode and the
    /// library whose advice the report adds.
    func prepare() throws(AuditUsageError) -> Setup {
        guard let endpoint else {
            throw AuditUsageError("Give --endpoint: the URL of your backend that takes a token, e.g. http://127.0.0.1:8000/me.")
        }
        if nonce != nil, rawNonce != nil { throw AuditUsageError("Give --nonce or --raw-nonce, not both.") }
        let chosenLibrary = try library.map { name throws(AuditUsageError) in try AuditLibrary.named(name) }
        guard timeout >= 1, timeout <= 600 else { throw AuditUsageError("--timeout must be 1 to 600 seconds.") }
        // Above 0: the slow-key-set fault is a delay, and a fault that changes nothing is refused by the provider.
        guard faultDelay > 0, faultDelay <= 300 else { throw AuditUsageError("--fault-delay must be above 0 and at most 300 seconds.") }
        guard recoveryWindow >= 0, recoveryWindow <= 600 else { throw AuditUsageError("--recovery-window must be 0 to 600 seconds.") }
        if let attackerHost {
            guard !attackerHost.isEmpty, attackerHost.utf8.count <= 253,
                attackerHost.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && !"/?#@[]".unicodeScalars.contains($0) })
            else {
                throw AuditUsageError(
                    "--attacker-host must be a host name or an IP address of this machine (no brackets, port or path), e.g. 192.168.1.20.")
            }
        }
        let template = try AuditRequestTemplate(
            endpoint: endpoint, method: method ?? (body != nil || !form.isEmpty ? "POST" : "GET"), headers: header, body: body,
            contentType: contentType, form: form, query: query
        )
        let rule = try AuditAnswerRule(accepted: accepted, refused: refused, pointer: acceptedPointer)
        var cases = AuditCase.allCases
        if let only {
            let named = try Self.caseNames(only, option: "--only")
            cases = cases.filter { $0 == .valid || named.contains($0) }
        }
        if let skip {
            let named = try Self.caseNames(skip, option: "--skip")
            if named.contains(.valid) { throw AuditUsageError("The good token (valid) cannot be skipped: every other verdict depends on it.") }
            cases = cases.filter { !named.contains($0) }
        }
        let nonceMode: AuditNonceMode
        if let nonce {
            nonceMode = .fixed(nonce)
        } else if let rawNonce {
            nonceMode = .fixedRaw(rawNonce)
        } else if template.uses("raw_nonce") {
            nonceMode = .perRequest(raw: true)
        } else if template.uses("nonce") {
            nonceMode = .perRequest(raw: false)
        } else {
            nonceMode = .unknown
        }
        return (template, rule, cases, nonceMode, chosenLibrary)
    }

    static func caseNames(_ text: String, option: String) throws(AuditUsageError) -> Set<AuditCase> {
        var cases: Set<AuditCase> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let found = AuditCase(rawValue: name) else {
                throw AuditUsageError("Unknown case \"\(name)\" in \(option); see --list-cases (e.g. alg-none, wrong-audience, expired).")
            }
            cases.insert(found)
        }
        guard !cases.isEmpty else { throw AuditUsageError("\(option) names no case.") }
        return cases
    }

    /// `--list-cases`: name, severity and what the token is, then the rule, one case per line pair; with a
    /// library, a third line with its change.
    static func caseList(library: AuditLibrary? = nil) -> String {
        let width = AuditCase.allCases.map(\.rawValue.count).max() ?? 0
        var lines: [String] = []
        for auditCase in AuditCase.allCases {
            let name = auditCase.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            let severity = auditCase.severity.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)
            lines.append(name + severity + auditCase.summary)
            lines.append(String(repeating: " ", count: width + 2 + 15) + "rule: " + auditCase.rule + "; should: " + auditCase.advice)
            if let library {
                lines.append(
                    String(repeating: " ", count: width + 2 + 15) + library.rawValue + ": "
                        + library.adviceLine(caseName: auditCase.rawValue, generic: auditCase.advice))
            }
        }
        lines.append("")
        lines.append(
            "With --faults, for each of " + AuditResilience.Fault.allCases.map(\.rawValue).joined(separator: ", ")
                + ": NAME:during-valid (should-accept), NAME:during-unknown-key (must-refuse), NAME:after (must-accept); then key-rotation (should-accept) and retired-key (should-refuse)."
        )
        return lines.joined(separator: "\n")
    }
}
