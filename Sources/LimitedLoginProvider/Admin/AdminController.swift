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

    /// The admin routes behind the admin token's guard (``AdminGuardMiddleware``).
    func addRoutes(to router: Router<BasicRequestContext>) {
        addOperations(to: router.group().add(middleware: AdminGuardMiddleware(services: services, adminToken: adminToken)))
    }

    /// Every admin route, on `router`: a group behind the admin token's guard when served, without it for
    /// the console's calls (``AdminAPI``), which check their own session first.
    func addOperations<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/keys") { _, _ in try await listKeys() }
        router.post("/_admin/keys/rotate") { request, _ in
            var request = request
            return try await rotate(&request)
        }
        AdminDirectoryController(services: services).addRoutes(to: router)
        AdminGrantController(services: services).addRoutes(to: router)
        AdminClockController(services: services).addRoutes(to: router)
        AdminScenarioController(services: services).addRoutes(to: router)
        AdminFaultController(services: services).addRoutes(to: router)
        AdminTokenController(services: services).addRoutes(to: router)
        AdminStateController(services: services).addRoutes(to: router)
        AdminLoginsController(services: services).addRoutes(to: router)
        AdminCertificateAuthorityController(services: services).addRoutes(to: router)
    }

    private func listKeys() async throws -> Response {
        let snapshot = try await services.keyring.reload()
        let now = ProviderTime.now()
        let keys: [JSONValue] = snapshot.records.map { record in
            var key: [String: JSONValue] = [
                "kid": .string(record.keyID), "created_at": .number(Double(record.createdAt)),
                "signs_from": .number(Double(record.signsFrom)),
                "signing": .bool(record.keyID.hasSameBytes(as: snapshot.signer.keyID)),
                "state": .string(Self.state(of: record, now: now, signer: snapshot.signer.keyID)),
            ]
            if let retiredAt = record.retiredAt {
                key["retired_at"] = .number(Double(retiredAt))
                key["unpublished_at"] = .number(Double(retiredAt + services.keyring.retention))
            }
            return .object(JSONObject(key))
        }
        return Responses.json(.object(["keys": .array(keys)]))
    }

    static func state(of record: SigningKeyRecord, now: Int64, signer: String) -> String {
        if record.keyID.hasSameBytes(as: signer) { return "signing" }
        if record.signsFrom > now { return "published, signs later" }
        return "retired, still published"
    }

    private func rotate(_ request: inout Request) async throws -> Response {
        var delay: Int64 = RotationDefaults.publishDelay
        var dropPrevious = false
        if request.headers[.contentType] != nil || (request.headers[.contentLength].flatMap(Int.init) ?? 0) > 0 {
            let form = try await request.formBody(limit: services.configuration.maximumBodySize)
            if let text = try? form.single("publish_delay") {
                guard let value = Int64(text), (0...(30 * 24 * 3600)).contains(value) else {
                    throw AdminError.badRequest("publish_delay must be a number of seconds from 0 to 2592000.")
                }
                delay = value
            }
            if let text = try? form.single("drop_previous") {
                guard text == "true" || text == "false" else { throw AdminError.badRequest("drop_previous must be true or false.") }
                dropPrevious = text == "true"
            }
        }
        if dropPrevious, delay != 0 {
            throw AdminError.badRequest("drop_previous needs publish_delay=0: the new key must sign at once when the others are dropped.")
        }
        let record = try await services.keyring.rotate(publishDelay: delay, dropPrevious: dropPrevious)
        services.logger.notice("signing key rotation scheduled", metadata: ["kid": "\(record.keyID)", "signs_from": "\(record.signsFrom)"])
        return Responses.json(.object([
            "kid": .string(record.keyID), "signs_from": .number(Double(record.signsFrom)),
            "publish_delay": .number(Double(delay)), "dropped_previous": .bool(dropPrevious),
        ]))
    }
}

/// Rotation defaults.
public enum RotationDefaults {
    /// A new key is published this many seconds before it signs, so that verifiers holding a cached key
    /// set meet its `kid` rarely (a verifier refetches on an unknown `kid` anyway).
    public static let publishDelay: Int64 = 600
}
