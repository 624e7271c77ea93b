import ArgumentParser
import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in through the dialog in a browser, verify the ID token, and save the login.",
        discussion: """
            Opens the provider's login dialog in the system browser (or prints its address), waits for the answer on a loopback redirect (http://127.0.0.1:<port>/callback), verifies the ID token with the provider's published keys and the nonce, then prints the token, the profile and the granted and declined permissions, and saves them (see 'whoami' and 'logout').

            Examples:
              limited-login login --app-id 1000000000000001 --tracking limited --permissions email,user_friends
              limited-login login --app-id 1000000000000001 --permissions email --json
              limited-login login --app-id 1000000000000001 --tracking limited --as alice@example.com --json   # no browser
            """
    )

    @Option(help: "The app's ID (the demo app of 'serve' is 1000000000000001).")
    var appID: String

    @Option(help: "The provider's base URL, or 'facebook' for the real service (default: $LIMITED_LOGIN_PROVIDER, else http://127.0.0.1:8080).")
    var provider: String?

    @Option(help: "limited (an ID token only) or enabled (classic: also an access token for the Graph API).")
    var tracking: TrackingOption = .enabled

    @Option(help: "Permissions to ask for, comma-separated (public_profile is always granted).")
    var permissions = "public_profile"

    @Option(help: "The nonce the ID token must carry (a fresh UUID by default).")
    var nonce: String?

    @Option(help: "rerequest (default: asks again for declined permissions), reauthorize, or none.")
    var authType = "rerequest"

    @Option(help: "Seconds to wait for the login to finish (at most 86400, a day).")
    var timeout: Double = 300

    @Flag(help: "Only print the dialog's address; do not open a browser.")
    var noBrowser = false

    @OptionGroup var saved: SavedLoginOptions

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(
        name: .customLong("as"),
        help: "Play the person without a browser: sign in as this test user (ID or email) on the provider's real pages over HTTP.")
    var person: String?

    @Option(
        help:
            "With --as: sign in with this password instead of picking the user (for users that cannot be picked). $LIMITED_LOGIN_PASSWORD gives it too, off the command line every local user can read."
    )
    var password: String?

    /// The password of a headless sign-in: `--password`, else `LIMITED_LOGIN_PASSWORD` (empty: none).
    private var givenPassword: String? {
        if let password { return password }
        guard let variable = ProcessInfo.processInfo.environment["LIMITED_LOGIN_PASSWORD"], !variable.isEmpty else { return nil }
        return variable
    }

    @Option(help: "With --as: permissions the person unticks on the consent page, comma-separated.")
    var untick: String?

    @Flag(help: "With --as: the person presses Cancel on the consent page.")
    var cancel = false

    @OptionGroup var trust: CAFileOption

    func validate() throws {
        if person == nil, password != nil || untick != nil || cancel {
            throw ValidationError("--password, --untick and --cancel go with --as (a headless login).")
        }
    }

    /// The presenter: the scripted person of --as, else the system browser on a loopback redirect.
    private func presenter() -> any AuthorizationPresenter {
        if let person {
            let signIn: ScriptedPerson.SignIn = givenPassword.map { .credentials(email: person, password: $0) } ?? .pick(person)
            let unticked = Set((untick ?? "").split(separator: ",").map { Permission(name: String($0).trimmingCharacters(in: .whitespaces)) })
            return ScriptedPresenter(person: ScriptedPerson(signIn: signIn, untick: unticked, decision: cancel ? .cancel : .continue))
        }
        let timeout = self.timeout
        return LoopbackPresenter(opener: noBrowser ? .announceOnly : .system, timeout: timeout, checksDialogFirst: true) { url, opened in
            LoopbackPresenter.printToStandardError(url, opened)
            printErrorLine("Waiting for the login to finish (up to \(Int(timeout)) s)…")
        }
    }

    /// Ends the command with `message` on standard error (status `code`) and, with `--json`, a JSON object
    /// `{"error": {"code", "message"}}` on standard output, so that a script reading the output sees why.
    private func failure(_ message: String, reason: String, code: Int32 = 1) -> ExitCode {
        if json {
            printLine(JSONSerializer.prettyPrinted(["error": ["code": .string(reason), "message": .string(message)]]))
        }
        return CommandFailure.fail(message, code: code)
    }

    func run() async throws {
        if let problem = trust.apply() { throw failure(problem, reason: "bad_option", code: 64) }
        let target = provider ?? ClientEnvironment.provider ?? ClientEnvironment.defaultProvider
        guard let endpoints = LoginTarget.parse(target) else {
            throw failure(
                "error: --provider must be an http(s) URL such as http://127.0.0.1:8080, or 'facebook'; got \"\(target)\"", reason: "bad_option",
                code: 64)
        }
        let names = permissions.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let authTypeValue: LoginAuthType?
        switch authType {
        case "none": authTypeValue = nil
        default:
            guard let value = LoginAuthType(rawValue: authType) else {
                throw failure("error: --auth-type must be rerequest, reauthorize or none", reason: "bad_option", code: 64)
            }
            authTypeValue = value
        }
        let permissionSet = Set(names.map { Permission(name: $0) })
        let nonceValue = nonce ?? UUID().uuidString
        // A name Facebook Login does not know is a typo here (`emial`), in a classic login as in a limited one.
        for permission in permissionSet.sorted(by: { $0.name < $1.name }) {
            guard permission.isValid, case .custom(let name) = permission else { continue }
            let suggestion = Permission.knownNames.map { ($0, UnknownOption.distance($0, name)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
            throw failure(
                "error: \"\(name)\" is not a permission Facebook Login knows" + (suggestion.map { " (did you mean \($0)?)" } ?? ""),
                reason: "unknown_permission", code: 64
            )
        }
        do {
            try LoginConfiguration.validate(permissions: permissionSet, tracking: tracking.value, nonce: nonceValue)
        } catch {
            throw failure("error: \(error.description)", reason: "bad_option", code: 64)
        }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw failure("error: --timeout must be a number of seconds above 0 and at most 86400 (a day)", reason: "bad_option", code: 64)
        }
        let configuration = LoginConfiguration(permissions: permissionSet, tracking: tracking.value, nonce: nonceValue, authType: authTypeValue)

        let presenter = presenter()
        let store = saved.store
        let session = LoginSession(store: store)
        let manager = LoginManager(
            appID: appID, endpoints: endpoints, presenter: presenter, session: session,
            verifier: await ProviderTimeVerifier.make(appID: appID, provider: target, endpoints: endpoints))
        let result: LoginManagerLoginResult
        do {
            result = try await manager.logIn(configuration: configuration)
        } catch {
            throw failure(withHint("error: \(error.description)", Self.hint(for: error)), reason: "login_failed")
        }
        if result.isCancelled {
            if json { printLine(JSONSerializer.prettyPrinted(["cancelled": true])) }
            throw CommandFailure.fail("the login was cancelled in the dialog; nothing was saved")
        }
        let printer = SessionPrinter(snapshot: session.snapshot, statePath: store.path)
        if json {
            printLine(printer.json(result: result))
        } else {
            printer.printHuman(result: result)
        }
    }
}

extension LoginCommand {
    /// What to do about a failure, when the failure suggests it.
    static func hint(for error: LoginError) -> String? {
        switch error {
        case .dialogUnreachable(_, let reason) where reason.contains("certificate") || reason.contains("TLS"):
            return nil
        case .dialogUnreachable:
            return "Is the provider running? Start one with 'limited-login serve', or give its address with --provider."
        case .dialogFailed(let code, _) where code == "404":
            return "See the provider's apps with 'limited-login apps list', or give another with --app-id."
        default:
            return nil
        }
    }
}

enum TrackingOption: String, ExpressibleByArgument, CaseIterable {
    case limited
    case enabled

    var value: LoginTracking { self == .limited ? .limited : .enabled }
}

/// Reads `--provider`.
enum LoginTarget {
    /// The endpoints `text` names, or nil when it names none.
    static func parse(_ text: String) -> LoginEndpoints? {
        if text == "facebook" { return .facebook }
        return ProviderAddress.url(text).map { .provider($0) }
    }
}
