import Foundation
import Hummingbird
import LimitedLoginJOSE

/// `GET /_admin/export` (the state in the fixtures file's shape; `?include_keys=true` adds the signing
/// keys), `POST /_admin/import` (such a document loaded as `--fixtures` loads one: what exists stays) and `POST /_admin/reset` (everything but keys and secrets removed, then the demo data seeded again
/// unless `{"empty": true}` or `?empty=true`; queued scenarios are cleared).
struct AdminStateController: Sendable {
    /// Set while the store was emptied on purpose, so that the next start does not seed it again.
    static let emptiedSetting = "emptied_by_reset"
    /// The largest document an import takes (an export of thousands of users fits).
    static let maximumImportSize = 16 << 20

    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/export") { request, _ in try await export(request) }
        router.post("/_admin/reset") { request, _ in try await reset(request) }
        router.post("/_admin/import") { request, _ in try await importState(request) }
    }

    private func export(_ request: Request) async throws -> Response {
        let includeKeys: Bool
        switch request.uri.queryParameters.get("include_keys") {
        case nil, "false"?, "0"?: includeKeys = false
        case "true"?, "1"?: includeKeys = true
        case let other?: throw AdminError.badRequest("include_keys must be true or false, not \"\(other)\".")
        }
        let data = try await AdminOperations(services: services).exportState(includingKeys: includeKeys)
        return Responses.jsonBytes(Array(data))
    }

    private func importState(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: Self.maximumImportSize) } catch {
            throw AdminError(.contentTooLarge, "The document is larger than \(Self.maximumImportSize) bytes.")
        }
        let summary = try await AdminOperations(services: services).importState(Data(buffer: body))
        return try Responses.json(AdminAcknowledgement(apps_added: summary.apps, users_added: summary.users, scenarios_queued: summary.scenarios))
    }

    private func reset(_ request: Request) async throws -> Response {
        let asked = try await AdminJSONBody.decode(
            ResetRequest.self, accepting: ResetRequest.keys, fromOptional: request, limit: services.configuration.maximumBodySize)
        let seeded = try await AdminOperations(services: services).resetState(
            empty: asked.empty || request.uri.queryParameters.get("empty") == "true")
        return try Responses.json(AdminAcknowledgement(seeded_demo_data: seeded))
    }
}
