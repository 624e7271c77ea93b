import ArgumentParser

/// `serve`'s options for tests and tooling: the admin token, the sign-in page's picker, a command run against
/// the provider, and the file that says it is ready.
struct ServeHarnessOptions: ParsableArguments {
    @Option(
        name: .customLong("admin-token"),
        help: "The admin API's bearer token, at least 16 characters (default: made at first start, printed once, kept in the store).")
    var adminToken: String?

    @Flag(name: .customLong("no-user-picker"), help: "Do not offer test users to pick on the sign-in page: every sign-in needs email and password.")
    var noUserPicker = false

    @Option(
        help:
            "Run this shell command (under bash when installed, else /bin/sh; in its own process group; this binary's folder first on PATH) once the provider accepts connections, with LIMITED_LOGIN_URL, _PROVIDER, _ISSUER, _DISCOVERY_URL, _JWKS_URL, _APP_ID and _ADMIN_TOKEN set (and _CA_FILE with --tls); then stop and exit with its status as soon as it exits. Processes it left running get SIGTERM, then SIGKILL after 5 s; SIGTERM, SIGINT or SIGHUP to serve is passed on to it, the provider answering until it ends (SIGKILL 5 s after the signal if it has not)."
    )
    var exec: String?

    @Option(
        name: .customLong("ready-file"),
        help:
            "Write a JSON object (url, issuer, discovery_url, jwks_url, certs_url, admin_token, pid, apps, users) to this file once the provider accepts connections; removed at start and when serve stops."
    )
    var readyFile: String?

    @Flag(
        name: .customLong("exit-with-stdin"),
        help:
            "Stop, as on SIGTERM, when standard input closes: a program that runs serve with a pipe as its input takes the provider with it when it ends, however it ends (SIGKILL included)."
    )
    var exitWithStandardInput = false

    func validate() throws {
        if let exec, exec.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--exec needs a command.") }
    }
}
