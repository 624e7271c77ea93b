import HTTPTypes
import Hummingbird
import LimitedLoginJOSE
import Logging
import NIOCore

/// The admin API, called in process: the console's forms run the very routes and handlers that serve
/// `/_admin` (one implementation, the same checks and the same answers), without the admin token's
/// guard, which the console's own session replaces.
struct AdminAPI: Sendable {
    /// An admin route's answer: its status, and its JSON body when it had one.
    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let body: JSONValue?

        var succeeded: Bool { (200..<300).contains(status.code) }

        /// The `error.message` of a refusal.
        var errorMessage: String? {
            guard !succeeded else { return nil }
            if case .object(let object)? = body, case .object(let error)? = object["error"], let message = error["message"]?.stringValue {
                return message
            }
            return "The admin API answered \(status.code) \(status.reasonPhrase)."
        }
    }

    /// A call's body.
    enum Body: Sendable {
        case json(JSONValue)
        /// `application/x-www-form-urlencoded`, for the routes that read a form.
        case form(String)
    }

    private let responder: RouterResponder<AdminCallContext>
    private let logger: Logger

    init(services: ProviderServices, adminToken: String) {
        let router = Router(context: AdminCallContext.self)
        AdminController(services: services, adminToken: adminToken).addOperations(to: router.group())
        responder = router.buildResponder()
        logger = services.logger
    }

    /// Runs `method path` with `body` (none for nil).
    func call(_ method: HTTPRequest.Method, _ path: String, body: Body? = nil) async throws -> Answer {
        var fields = HTTPFields()
        var bytes = ByteBuffer()
        switch body {
        case .json(let json)?:
            fields[.contentType] = "application/json"
            bytes = ByteBuffer(bytes: JSONSerializer.serialize(json))
        case .form(let form)?:
            fields[.contentType] = "application/x-www-form-urlencoded"
            bytes = ByteBuffer(string: form)
        case nil:
            break
        }
        if body != nil { fields[.contentLength] = String(bytes.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "console", path: path, headerFields: fields),
            body: RequestBody(buffer: bytes)
        )
        let response: Response
        do {
            response = try await responder.respond(to: request, context: AdminCallContext(source: .init(logger: logger)))
        } catch let error as HTTPError {
            return Answer(status: error.status, body: .object(["error": .object(["message": .string(error.body ?? error.status.reasonPhrase)])]))
        } catch let error as AdminError {
            return Answer(status: error.status, body: error.json)
        }
        let sink = CollectedBody()
        try await response.body.write(CollectingBodyWriter(sink: sink))
        let answer = sink.bytes
        return Answer(status: response.status, body: answer.isEmpty ? nil : try? StrictJSONParser().parse(answer))
    }
}

/// The request context of an in-process admin call: the router's parameters and a logger, no channel.
struct AdminCallContext: RequestContext {
    struct Source: RequestContextSource {
        let logger: Logger
    }

    var coreContext: CoreRequestContextStorage

    init(source: Source) {
        coreContext = .init(source: source)
    }
}

/// The bytes a response body wrote.
private final class CollectedBody: @unchecked Sendable {
    var bytes: [UInt8] = []
}

private struct CollectingBodyWriter: ResponseBodyWriter {
    let sink: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        sink.bytes.append(contentsOf: buffer.readableBytesView)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
