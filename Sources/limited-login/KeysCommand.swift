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

    struct Connection: ParsableArguments {
        @Option(help: "The provider's base URL.")
        var provider = "http://127.0.0.1:8080"

        @Option(name: .customLong("admin-token"), help: "The admin token `serve` printed at first start (or was given).")
        var adminToken: String
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys: which signs, which are published, when each retires.")
        @OptionGroup var connection: Connection

        func run() async throws {
            let document = try await AdminRequest.send(connection, path: "/_admin/keys", method: .GET, form: nil)
            printLine(JSONSerializer.prettyPrinted(document))
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a new signing key now; it signs after the delay, when the current key retires.",
            discussion: "A retired key stays published for the token lifetime plus five minutes, then is dropped."
        )
        @OptionGroup var connection: Connection

        @Option(name: .customLong("publish-delay"), help: "Seconds between publishing the new key and signing with it.")
        var publishDelay: Int = 600

        func validate() throws {
            guard (0...2_592_000).contains(publishDelay) else { throw ValidationError("--publish-delay must be 0 to 2592000 seconds.") }
        }

        func run() async throws {
            let document = try await AdminRequest.send(
                connection, path: "/_admin/keys/rotate", method: .POST, form: "publish_delay=\(publishDelay)"
            )
            printLine(JSONSerializer.prettyPrinted(document))
        }
    }
}

/// One call to a provider's admin API; failures end the command with one line.
enum AdminRequest {
    static func send(_ connection: KeysCommand.Connection, path: String, method: HTTPMethod, form: String?) async throws -> JSONValue {
        var base = connection.provider
        while base.hasSuffix("/") { base.removeLast() }
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(connection.adminToken)")
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let status: UInt, body: ByteBuffer
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            status = response.status.code
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw CommandFailure.fail("limited-login: cannot reach the provider at \(base): \(error)")
        }
        let document = try? StrictJSONParser().parse(Array(body.readableBytesView))
        guard status == 200, let document else {
            let message = document?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? "HTTP \(status)"
            throw CommandFailure.fail("limited-login: the provider refused: \(message)")
        }
        return document
    }
}
