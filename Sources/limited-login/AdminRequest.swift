import ArgumentParser
import AsyncHTTPClient
import Foundation
import LimitedLoginJOSE
import NIOCore
import NIOHTTP1

/// How the admin commands reach a running provider.
struct AdminConnection: ParsableArguments {
    @Option(help: "The provider's base URL.")
    var provider = "http://127.0.0.1:8080"

    @Option(name: .customLong("admin-token"), help: "The admin token `serve` printed at first start (or was given).")
    var adminToken: String
}

/// One call to a provider's admin API; failures end the command with one line.
enum AdminRequest {
    enum Body {
        case form(String)
        case json(JSONValue)
    }

    static func send(_ connection: AdminConnection, path: String, method: HTTPMethod, body: Body? = nil) async throws -> JSONValue {
        var base = connection.provider
        while base.hasSuffix("/") { base.removeLast() }
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(connection.adminToken)")
        switch body {
        case .form(let text)?:
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: text))
        case .json(let value)?:
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: JSONSerializer.serialize(value)))
        case nil:
            break
        }
        let status: UInt, bytes: ByteBuffer
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            status = response.status.code
            bytes = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw CommandFailure.fail("limited-login: cannot reach the provider at \(base): \(error)")
        }
        let document = try? StrictJSONParser().parse(Array(bytes.readableBytesView))
        guard (200..<300).contains(status), let document else {
            let message = document?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? "HTTP \(status)"
            throw CommandFailure.fail("limited-login: the provider refused: \(message)")
        }
        return document
    }

    /// Sends and prints the answer as indented JSON.
    static func run(_ connection: AdminConnection, path: String, method: HTTPMethod, body: Body? = nil) async throws {
        printLine(JSONSerializer.prettyPrinted(try await send(connection, path: path, method: method, body: body)))
    }
}
