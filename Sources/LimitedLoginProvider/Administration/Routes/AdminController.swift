import HTTPTypes
import Hummingbird
import LimitedLoginJOSE

/// The administration API under `/_admin`, guarded by the admin token (`Authorization: Bearer …`, the
/// scheme in any case).
/// Keys (list, rotate) here; apps, users, friendships and reset in ``AdminDirectoryController``.
struct AdminController: Sendable {
    static let prefix = "/_admin"
    let services: ProviderServices
    let adminToken: String

    /// Every admin route, in a group behind the admin token's guard (``AdminGuardMiddleware``). Each is a
    /// thin adapter over ``AdminOperations``, which the console calls directly after its own session check.
    func addRoutes(to parent: Router<BasicRequestContext>) {
        let router = parent.group().add(middleware: AdminGuardMiddleware<BasicRequestContext>(services: services, adminToken: adminToken))
        router.get("/_admin/keys") { _, _ in try await listKeys() }
        router.post("/_admin/keys/rotate") { request, _ in
            var request = request
            return try await rotate(&request)
        }
        AdminDirectoryController(services: services).addRoutes(to: router)
        AdminGrantController(services: services).addRoutes(to: router)
        AdminCallbackController(services: services).addRoutes(to: router)
        AdminAppRoleController(services: services).addRoutes(to: router)
        AdminClockController(services: services).addRoutes(to: router)
        AdminScenarioController(services: services).addRoutes(to: router)
        AdminFaultController(services: services).addRoutes(to: router)
        AdminTokenController(services: services).addRoutes(to: router)
        AdminStateController(services: services).addRoutes(to: router)
        AdminLoginsController(services: services).addRoutes(to: router)
        AdminCertificateAuthorityController(services: services).addRoutes(to: router)
        AdminCredentialController(services: services).addRoutes(to: router)
    }

    private var operations: AdminOperations { AdminOperations(services: services) }

    private func listKeys() async throws -> Response {
        try Responses.json(["keys": try await operations.keys()])
    }

    /// `POST /_admin/keys/rotate`, a form: `publish_delay` (seconds) and `drop_previous` (true or false).
    private func rotate(_ request: inout Request) async throws -> Response {
        var delay: Int64 = RotationDefaults.publishDelay
        var dropPrevious = false
        if request.headers[.contentType] != nil || (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 {
            let form = try await request.formBody(limit: services.configuration.maximumBodySize)
            if let text = try? form.single("publish_delay") {
                guard let value = Int64(text) else { throw AdminError.badRequest("publish_delay must be a number of seconds from 0 to 2592000.") }
                delay = value
            }
            if let text = try? form.single("drop_previous") {
                guard text == "true" || text == "false" else { throw AdminError.badRequest("drop_previous must be true or false.") }
                dropPrevious = text == "true"
            }
        }
        let record = try await operations.rotateKeys(publishDelay: delay, dropPrevious: dropPrevious)
        return try Responses.json(
            AdminKeyRotation(kid: record.keyID, signs_from: record.signsFrom, publish_delay: delay, dropped_previous: dropPrevious))
    }
}

/// Rotation defaults.
public enum RotationDefaults {
    /// A new key is published this many seconds before it signs, so that verifiers holding a cached key
    /// set meet its `kid` rarely (a verifier refetches on an unknown `kid` anyway).
    public static let publishDelay: Int64 = 600
}
