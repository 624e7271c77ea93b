import Foundation
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The admin API for scoped credentials and the admin log (docs/SECURITY.md, "Scoped admin credentials").
///
/// - `GET /_admin/credentials`: `{"credentials": [{"name", "apps", "created_at", "revoked_at"}]}`.
/// - `POST /_admin/credentials` `{"name": "team-a", "apps": ["…"]}` → 201 with `"token"`, shown this once.
/// - `DELETE /_admin/credentials/:name`: revoked; refused on every node from then on.
/// - `GET /_admin/log[?limit=N]`: `{"entries": [{"at", "credential", "operation", "target", "node"}]}`,
///   newest first (`at` in seconds since 1970); a scoped credential reads its own entries.
struct AdminCredentialController: Sendable {
    let services: ProviderServices
    var operations: AdminOperations { AdminOperations(services: services) }

    /// A credential as the answers show it (`revoked_at` null while it works; `token` only when made).
    static func json(_ credential: AdminOperations.CredentialView) -> JSONValue {
        var object: JSONObject = [
            "name": .string(credential.name), "apps": .array(credential.apps.map(JSONValue.string)),
            "created_at": .number(Double(credential.created_at)), "revoked_at": credential.revoked_at.map { .number(Double($0)) } ?? .null,
        ]
        if let token = credential.token { object["token"] = .string(token) }
        return .object(object)
    }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/credentials") { _, _ in
            Responses.json(.object(["credentials": .array(try await operations.credentials().map(Self.json))]))
        }
        router.post("/_admin/credentials") { request, _ in
            let new = try await AdminJSONBody.decode(
                AdminOperations.NewCredential.self, accepting: ["name", "apps"], from: request, limit: services.configuration.maximumBodySize)
            return Responses.json(Self.json(try await operations.createCredential(new)), status: .created)
        }
        router.delete("/_admin/credentials/:name") { _, context in
            // The name is one path segment, percent-encoded when it holds a space.
            let name = context.parameters.get("name").flatMap { $0.removingPercentEncoding } ?? ""
            try await operations.revokeCredential(name: name)
            return Responses.json(.object(["success": true, "name": .string(name)]))
        }
        router.get("/_admin/log") { request, _ in
            let text: String?
            do { text = try FormParameters(encoded: request.uri.query ?? "").single("limit") } catch let error as FormParametersError {
                throw AdminError.badRequest("The query cannot be read: \(error.description).")
            }
            var limit = 100
            if let text {
                guard let value = Int(text) else { throw AdminError.badRequest("limit must be a number from 1 to \(AdminWriteLog.kept).") }
                limit = value
            }
            let entries = try await operations.adminLog(limit: limit)
            return Responses.json(
                .object([
                    "entries": .array(
                        entries.map {
                            .object([
                                "at": .number(Double($0.at / 1_000_000)), "credential": .string($0.credential), "operation": .string($0.operation),
                                "target": .string($0.target), "node": .string($0.node),
                            ])
                        })
                ]))
        }
    }
}
