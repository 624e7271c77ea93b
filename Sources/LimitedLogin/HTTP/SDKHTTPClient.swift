import AsyncHTTPClient
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOCore
import NIOHTTP1

/// The SDK's requests, on the verifier's client (``NonRedirectingHTTPClient``: a redirect is an answer to
/// read, not a hint to follow): bounded answers, JSON read with the strict reader.
enum SDKHTTPClient {
    static var client: HTTPClient { NonRedirectingHTTPClient.shared }

    static let maximumBodySize = 1024 * 1024

    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        /// The body as a JSON object (read once, with the strict reader), or nil.
        let jsonObject: JSONObject?

        init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
            if case .object(let object)? = try? StrictJSONParser(maximumSize: SDKHTTPClient.maximumBodySize).parse(body) {
                jsonObject = object
            } else {
                jsonObject = nil
            }
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The Graph API's error shape (`{"error":{"message","code","error_subcode","type"}}`), when the
        /// body is one.
        var graphError: (code: Int, subcode: Int?, type: String?, message: String)? {
            guard case .object(let error)? = jsonObject?["error"] else { return nil }
            return (
                error["code"]?.numberValue.flatMap { Int(exactly: $0) } ?? 0, error["error_subcode"]?.numberValue.flatMap { Int(exactly: $0) },
                error["type"]?.stringValue, error["message"]?.stringValue ?? "HTTP \(status)"
            )
        }
    }

    static func send(
        _ url: URL, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> Answer {
        guard url.hasUsablePort else { throw UnusablePort(url: url) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: maximumBodySize)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Array(buffer.readableBytesView))
    }
}

/// A URL whose port is outside 1–65535: nothing can answer it (the HTTP client would trap on it).
struct UnusablePort: Error, CustomStringConvertible {
    let url: URL
    var description: String { "\(url.absoluteString): the port is not 1 to 65535" }
}
