import ArgumentParser
import Foundation
import LimitedLogin
import LimitedLoginJOSE

struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the saved login: profile, tokens and permissions.",
        discussion: "Reads what 'login' saved. Exits 1 when nobody is logged in."
    )

    @OptionGroup var saved: SavedLoginOptions

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        let store = saved.store
        let snapshot: SessionSnapshot?
        do { snapshot = try store.load() } catch { throw CommandFailure.fail("error: \(error.description)") }
        guard let snapshot, !snapshot.isEmpty else {
            if json { printLine(JSONSerializer.prettyPrinted(["logged_in": false])) }
            throw CommandFailure.fail("not logged in (nothing saved at \(store.path))")
        }
        let printer = SessionPrinter(snapshot: snapshot, statePath: store.path)
        if json { printLine(printer.json(result: nil)) } else { printer.printHuman(result: nil) }
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the saved login (tokens and profile).",
        discussion: "Removes the file 'login' saved. Logging out when nobody is logged in is not an error."
    )

    @OptionGroup var saved: SavedLoginOptions

    func run() async throws {
        let store = saved.store
        let session = LoginSession(store: store)
        let wasLoggedIn = !(session.snapshot.isEmpty)
        do { try session.clear() } catch { throw CommandFailure.fail("error: \(error.description)") }
        printLine(wasLoggedIn ? "Logged out; removed \(store.path)." : "Not logged in; nothing to remove.")
    }
}

/// `--state-file`: where `login` saves, and `whoami` and `logout` read.
struct SavedLoginOptions: ParsableArguments {
    @Option(
        help:
            "Where the login is saved (default: $LIMITED_LOGIN_STATE_FILE, else $XDG_STATE_HOME/limited-login/session.json, else $HOME/.local/state/limited-login/session.json)."
    )
    var stateFile: String?

    var store: FileTokenStore { FileTokenStore(path: stateFile ?? FileTokenStore.defaultPath) }
}
