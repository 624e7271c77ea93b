import ArgumentParser
import LimitedLoginProvider

/// `serve`'s store options: where the state is kept, what is loaded into it at start, and where it is
/// written when the provider stops.
struct ServeStoreOptions: ParsableArguments {
    @Option(help: "The SQLite database file (created if missing), :memory: for a throwaway store, or a postgres:// URL shared by several nodes.")
    var database = "limited-login.sqlite"

    @Flag(
        name: .customLong("init"),
        help:
            "Make a store in an existing --database file that is otherwise refused: an empty file (what a failed copy looks like) or an SQLite database without the provider's tables."
    )
    var initializeStore = false

    @Option(help: "A JSON file of apps and test users to load at start (see above).")
    var fixtures: String?

    @Flag(name: .customLong("no-demo-data"), help: "Do not seed the demo app and test users into an empty store.")
    var noDemoData = false

    @Option(
        name: .customLong("export-on-exit"),
        help:
            "When the provider stops, write its state (as 'export --include-keys' prints it) to this file, for --fixtures to load back; serve exits 73 when it cannot be written."
    )
    var exportOnExit: String?

    /// The store `--database` names and the fixtures `--fixtures` holds, or why either cannot be used (exit 64).
    func load() throws -> (store: StoreLocation, fixtures: ProviderFixtures?) {
        do {
            let store = try StoreLocation(argument: database)
            return (store, try fixtures.map { path throws(FixturesError) in try ProviderFixtures.load(path: path) })
        } catch let error as StoreError {
            throw CommandFailure.fail("limited-login serve: \(error.description)", code: 64)
        } catch let error as FixturesError {
            throw CommandFailure.fail("limited-login serve: \(error.description)", code: 64)
        }
    }
}
