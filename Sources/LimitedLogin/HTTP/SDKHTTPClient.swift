import AsyncHTTPClient
import Foundation
import LimitedLoginJOSE
import NIOCore
import NIOHTTP1

/// The SDK's one HTTP client: never follows redirects (a redirect is an answer to read, not a hint to
/// follow), bounded answers, JSON read with the strict reader.
enum SDKHTTPClient {
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )

    static let maximumBodySize = 1024 * 1024

    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object, or nil.
        var jsonObject: JSONObject? {
            guard case .object(let object)? = try? StrictJSONParser(maximumSize: SDKHTTPClient.maximumBodySize).parse(body) else { return nil }
            return object
        }
    }

    static func send(
        _ url: URL, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: maximumBodySize)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Array(buffer.readableBytesView))
    }
}
