import ArgumentParser
import AsyncHTTPClient
import Foundation
import LimitedLoginJOSE
import NIOCore
import NIOHTTP1

/// `limited-login keys`: a running provider's signing keys, through its admin API.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List or rotate a running provider's signing keys (through its admin API).",
        subcommands: [List.self, Rotate.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the keys: which signs, which are published, when each retires.")
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat

        func run() async throws {
            try await AdminRequest.run(connection, output, path: "/_admin/keys", method: .GET) {
                AdminOutput.table($0, listKey: "keys", columns: AdminOutput.keys, empty: "No keys.")
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Publish a new signing key now; it signs after the delay, when the current key retires.",
            discussion: "A retired key stays published for the token lifetime plus five minutes, then is dropped."
        )
        @OptionGroup var connection: AdminConnection
        @OptionGroup var output: AdminOutputFormat

        @Option(name: .customLong("publish-delay"), help: "Seconds between publishing the new key and signing with it.")
        var publishDelay: Int = 600

        @Flag(
            name: .customLong("drop-previous"),
            help: "Unpublish every other key at once (needs --publish-delay 0): tokens they signed stop verifying.")
        var dropPrevious = false

        func validate() throws {
            guard (0...2_592_000).contains(publishDelay) else { throw ValidationError("--publish-delay must be 0 to 2592000 seconds.") }
            if dropPrevious, publishDelay != 0 { throw ValidationError("--drop-previous needs --publish-delay 0 (the new key must sign at once).") }
        }

        func run() async throws {
            try await AdminRequest.run(
                connection, output, path: "/_admin/keys/rotate", method: .POST,
                body: .form("publish_delay=\(publishDelay)" + (dropPrevious ? "&drop_previous=true" : ""))
            ) {
                "Published a new signing key.\n" + AdminOutput.fields($0)
            }
        }
    }
}
