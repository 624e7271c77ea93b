import ArgumentParser
import Foundation
import LimitedLoginJOSE
import LimitedLoginProvider

/// `limited-login token`: mint an ID token through a running provider's admin API, for a test.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint an ID token (and, for a classic login, an access token) for an app and a test user, without a browser.",
        discussion: """
            The token goes through the same issuer, claims, app-scoped IDs, friends rule and grants as the dialog, and the \
            grant is recorded as a consent would record it. Plain output is the ID token alone on one line; --json prints \
            {"id_token", "access_token" (classic), "claims", ...}. --defect makes the token wrong in one named way, to test \
            a backend's rejection paths (--list-defects lists them).

            Examples:
              ID_TOKEN=$(limited-login token --app-id 1000000000000001 --user alice@example.com --nonce n-1)
              limited-login token --app-id 1000000000000001 --user alice@example.com --defect expired
              limited-login token --app-id 1000000000000001 --user alice@example.com --raw-nonce r-1     # nonce = SHA-256 hex of r-1
              limited-login token --app-id 1000000000000001 --user alice@example.com --lifetime 5 --claims '{"email": null}'
              limited-login token --app-id 1000000000000001 --subject 10150000000000042 --claims '{"name": "Zed"}'
              limited-login token --list-defects
            """
    )

    @Option(name: .customLong("app-id"), help: "The app the token is for.")
    var appID: String?

    @Option(help: "The test user: an ID or an email.")
    var user: String?

    @Option(
        help: ArgumentHelp(
            "In place of --user: the token's sub, for a subject no stored user has (a stand-in \"Test User\" profile; limited only).",
            valueName: "sub"))
    var subject: String?

    @Option(help: "Permissions granted, comma-separated (public_profile is always granted).")
    var permissions = "public_profile"

    @Option(help: "The nonce the token carries (default: a fresh UUID; see the claims with --json).")
    var nonce: String?

    @Option(
        name: .customLong("raw-nonce"),
        help: "A raw nonce: the token carries its SHA-256 hex, as Firebase and Supabase expect (verify with --raw-nonce too).")
    var rawNonce: String?

    @Option(
        help: ArgumentHelp(
            "Claims to add or replace, as a JSON object; null removes one, e.g. '{\"email\": \"x@example.com\", \"picture\": null}'.",
            valueName: "json"))
    var claims: String?

    @Option(help: ArgumentHelp("Seconds from the token's iat to its exp (default: the provider's ID-token lifetime).", valueName: "seconds"))
    var lifetime: Int64?

    @Option(help: ArgumentHelp("The token's iat: seconds since 1970 or an ISO 8601 time (default: the provider's time).", valueName: "time"))
    var iat: String?

    @Option(help: ArgumentHelp("The token's exp: seconds since 1970 or an ISO 8601 time (default: iat + the lifetime).", valueName: "time"))
    var exp: String?

    @Option(help: "limited (an ID token only; the default) or enabled (classic: also an access token).")
    var tracking: TrackingOption = .limited

    @Option(help: "Make the token wrong in one named way (see --list-defects).")
    var defect: String?

    @Flag(name: .customLong("list-defects"), help: "List the defects, one line each, and exit.")
    var listDefects = false

    @Flag(help: "Print the whole answer as JSON.")
    var json = false

    @OptionGroup var connection: AdminConnection

    func validate() throws {
        if listDefects { return }
        guard appID != nil else { throw ValidationError("Give --app-id (the demo app of 'serve' is 1000000000000001).") }
        switch (user, subject) {
        case (nil, nil): throw ValidationError("Give --user: a test user's ID or email, e.g. alice@example.com (or --subject SUB).")
        case (_?, _?): throw ValidationError("Give --user or --subject, not both.")
        default: break
        }
        if nonce != nil, rawNonce != nil { throw ValidationError("Give --nonce or --raw-nonce, not both.") }
        if lifetime != nil, exp != nil { throw ValidationError("Give --lifetime or --exp, not both.") }
        if let lifetime, lifetime < 1 { throw ValidationError("--lifetime must be a number of seconds of at least 1.") }
        for (flag, value) in [("--iat", iat), ("--exp", exp)] where value != nil && (TimeArgument.epoch(value ?? "") ?? -1) < 0 {
            throw ValidationError("\(flag) must be seconds since 1970 or an ISO 8601 time such as 2030-01-01T00:00:00Z; got \"\(value ?? "")\".")
        }
        if let claims, (try? StrictJSONParser().parse(Array(claims.utf8)))?.objectValue == nil {
            throw ValidationError("--claims must be a JSON object, e.g. '{\"email\": \"x@example.com\"}'.")
        }
        if let defect, TokenDefect(rawValue: defect) == nil {
            throw ValidationError("Unknown defect \"\(defect)\"; one of: \(TokenDefect.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() async throws {
        if listDefects {
            let width = TokenDefect.allCases.map(\.rawValue.count).max() ?? 0
            for defect in TokenDefect.allCases {
                printLine(defect.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + defect.summary)
            }
            return
        }
        var body: JSONObject = [
            "app_id": .string(appID ?? ""), "tracking": .string(tracking.rawValue),
            "permissions": .array(
                permissions.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { .string($0) }),
        ]
        if let user { body["user"] = .string(user) }
        if let subject { body["subject"] = .string(subject) }
        if let nonce { body["nonce"] = .string(nonce) }
        if let defect { body["defect"] = .string(defect) }
        if let rawNonce { body["raw_nonce"] = .string(rawNonce) }
        if let claims, let object = (try? StrictJSONParser().parse(Array(claims.utf8)))?.objectValue { body["claims"] = .object(object) }
        if let lifetime { body["lifetime"] = .number(Double(lifetime)) }
        if let iat = iat.flatMap(TimeArgument.epoch) { body["iat"] = .number(Double(iat)) }
        if let exp = exp.flatMap(TimeArgument.epoch) { body["exp"] = .number(Double(exp)) }
        let answer = try await AdminRequest.send(connection, path: "/_admin/tokens", method: .POST, body: .json(.object(body)))
        if json {
            printLine(JSONSerializer.prettyPrinted(answer))
        } else {
            guard let token = answer.objectValue?["id_token"]?.stringValue else {
                throw CommandFailure.fail("limited-login token: the provider's answer has no id_token")
            }
            printLine(token)
        }
    }
}
