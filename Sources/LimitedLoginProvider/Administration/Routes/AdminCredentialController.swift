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

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/credentials") { _, _ in
            try Responses.json(["credentials": try await operations.credentials()])
        }
        router.post("/_admin/credentials") { request, _ in
            let new = try await AdminJSONBody.decode(
                AdminOperations.NewCredential.self, accepting: ["name", "apps"], from: request, limit: services.configuration.maximumBodySize)
            return try Responses.json(try await operations.createCredential(new), status: .created)
        }
        router.delete("/_admin/credentials/:name") { _, context in
            // The name is one path segment, percent-encoded when it holds a space.
            let name = context.parameters.get("name").flatMap { $0.removingPercentEncoding } ?? ""
            try await operations.revokeCredential(name: name)
            return try Responses.json(AdminAcknowledgement(name: name))
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
            return try Responses.json(["entries": try await operations.adminLog(limit: limit).map(AdminOperations.LogEntryView.init)])
        }
    }
}
