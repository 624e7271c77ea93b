import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// The harness suites' provider: the test fixtures, a known admin token.
func harnessConfiguration(lifetimes: TokenLifetimes = TokenLifetimes()) -> ProviderConfiguration {
    var configuration = TestFixtures.configuration()
    configuration.adminToken = KeyRotationAndAdminTests.adminToken
    configuration.lifetimes = lifetimes
    return configuration
}

/// An admin API answer: its status and JSON object.
struct AdminReply: Sendable {
    let status: HTTPResponse.Status
    let object: JSONObject

    /// The `error.message` of a refusal.
    var message: String? { object["error"]?.objectValue?["message"]?.stringValue }
}

/// Calls the admin API with the harness's token and an optional JSON body.
func admin(_ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, json: String? = nil) async throws -> AdminReply {
    try await admin(client, path, method: method, json: json, as: KeyRotationAndAdminTests.adminToken)
}

/// Calls the admin API with `token` (a scoped credential's, say) and an optional JSON body.
func admin(
    _ client: any TestClientProtocol, _ path: String, method: HTTPRequest.Method = .get, json: String? = nil, as token: String
) async throws
    -> AdminReply
{
    var headers: HTTPFields = [.authorization: "Bearer \(token)"]
    if json != nil { headers[.contentType] = "application/json" }
    let response = try await client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    let text = String(buffer: response.body)
    let object = try #require(try StrictJSONParser().parse(Array(text.utf8)).objectValue, "not a JSON object: \(text)")
    return AdminReply(status: response.status, object: object)
}

extension AdminReply {
    /// The minted ID token of a `POST /_admin/tokens` answer.
    func idToken() throws -> String { try #require(object["id_token"]?.stringValue, "no id_token in \(object)") }
}
