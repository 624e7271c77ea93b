import AsyncHTTPClient
import Foundation
import LimitedLoginAudit
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOCore
import NIOHTTP1

/// The provider the backend trusts (``AuditProviderAccess``), reached through its admin API.
struct AuditProvider: AuditProviderAccess {
    let baseURL: String
    let adminToken: String

    /// An ID token minted by `POST /_admin/tokens` with `body`.
    func mint(_ body: JSONObject) async throws -> String {
        let answer = try await admin("/_admin/tokens", method: .POST, json: .object(body))
        guard let token = answer.objectValue?["id_token"]?.stringValue else {
            throw AuditFailure("the provider at \(baseURL) answered a minting request without an id_token")
        }
        return token
    }

    /// The key set the provider publishes now.
    func keySet() async throws -> JSONWebKeySet {
        let (status, bytes) = try await get(baseURL + "/.well-known/oauth/openid/jwks/")
        guard status == 200, let set = try? JSONWebKeySet(parsing: bytes) else {
            throw AuditFailure("the provider at \(baseURL) did not serve its key set (HTTP \(status))")
        }
        return set
    }

    /// Rotates the signing key at once; `dropPrevious` unpublishes the others.
    func rotateKeys(dropPrevious: Bool) async throws {
        _ = try await admin("/_admin/keys/rotate", method: .POST, form: "publish_delay=0" + (dropPrevious ? "&drop_previous=true" : ""))
    }

    /// Injects a fault on the key endpoints (`POST /_admin/faults`).
    func setFault(_ body: JSONObject) async throws {
        _ = try await admin("/_admin/faults", method: .POST, json: .object(body))
    }

    func clearFaults() async throws {
        _ = try await admin("/_admin/faults", method: .DELETE)
    }

    private func admin(_ path: String, method: HTTPMethod, json: JSONValue? = nil, form: String? = nil) async throws -> JSONValue {
        let body: AdminRequest.Body? = json.map { .json($0) } ?? form.map { .form($0) }
        do {
            return try await AdminRequest.call(base: baseURL, token: adminToken, path: path, method: method, body: body)
        } catch .unreachable(let reason, let nothingListening) {
            throw AuditFailure(
                "cannot reach the provider at \(baseURL): \(reason)" + (nothingListening ? " (is it running? give its address with --provider)" : ""))
        } catch .refused(let message) {
            throw AuditFailure("the provider at \(baseURL) refused \(method.rawValue) \(path): \(message)")
        }
    }

    private func get(_ url: String) async throws -> (UInt, [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        do {
            let response = try await AdminHTTPClient.client(for: baseURL).execute(request, timeout: .seconds(60))
            return (response.status.code, Array(try await response.body.collect(upTo: 1 << 20).readableBytesView))
        } catch {
            let hint = TransportFailure.isUnreachable(error) ? " (is it running? give its address with --provider)" : ""
            throw AuditFailure("cannot reach the provider at \(baseURL): \(TransportFailure.reason(error))\(hint)")
        }
    }
}
