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

    func addRoutes(to router: Router<BasicRequestContext>) {
        addOperations(to: router) { request, body in try await self.guarded(request, body) }
    }

    /// Every admin route, each behind `guarded`: the admin token's check when served, nothing for the
    /// console's calls (``AdminAPI``), which check their own session first.
    func addOperations<Context: RequestContext>(to router: Router<Context>, guarded adminGuard: @escaping AdminGuard) {
        router.get("/_admin/keys") { request, _ in try await adminGuard(request) { try await listKeys() } }
        router.post("/_admin/keys/rotate") { request, _ in
            try await adminGuard(request) {
                var request = request
                return try await rotate(&request)
            }
        }
        AdminDirectoryController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminGrantController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminClockController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminScenarioController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminFaultController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminTokenController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminStateController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminLoginsController(services: services).addRoutes(to: router, guarded: adminGuard)
        AdminCertificateAuthorityController(services: services).addRoutes(to: router, guarded: adminGuard)
    }

    static func tooManyWrongTokens(retryAfter: Int64) -> String {
        "Too many wrong admin tokens from this address. Try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s")."
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        Responses.json(.object(["error": .object(["message": .string(message)])]), status: status)
    }

    private func guarded(_ request: Request, _ body: () async throws -> Response) async throws -> Response {
        guard let token = Self.bearerToken(request.headers[.authorization]) else {
            var response = Self.error("The admin API needs Authorization: Bearer <admin token>.", status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer realm=\"limited-login admin\""
            return response
        }
        let address = ClientAddress.current, now = ProviderTime.systemNow()
        if let retryAfter = await services.adminTokenAttempts.refusal(address: address, now: now) {
            var response = Self.error(Self.tooManyWrongTokens(retryAfter: retryAfter), status: .tooManyRequests)
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        guard constantTimeEquals(token, adminToken) else {
            await services.adminTokenAttempts.failed(address: address, now: now)
            services.logger.notice("admin API refused: wrong admin token")
            return Self.error("The admin token is wrong.", status: .forbidden)
        }
        return try await body()
    }

    /// The token of an `Authorization: Bearer <token>` header. The scheme is matched without regard to
    /// case (RFC 9110 section 11.1: `bearer`, `BEARER`), and one or more spaces may follow it.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let scheme = header.prefix { $0 != " " }
        guard scheme.lowercased() == "bearer" else { return nil }
        let token = header.dropFirst(scheme.count).drop { $0 == " " }
        return token.isEmpty ? nil : String(token)
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
                    return Self.error("publish_delay must be a number of seconds from 0 to 2592000.", status: .badRequest)
                }
                delay = value
            }
            if let text = try? form.single("drop_previous") {
                guard text == "true" || text == "false" else { return Self.error("drop_previous must be true or false.", status: .badRequest) }
                dropPrevious = text == "true"
            }
        }
        if dropPrevious, delay != 0 {
            return Self.error("drop_previous needs publish_delay=0: the new key must sign at once when the others are dropped.", status: .badRequest)
        }
        let record = try await services.keyring.rotate(publishDelay: delay, dropPrevious: dropPrevious)
        services.logger.notice("signing key rotation scheduled", metadata: ["kid": "\(record.keyID)", "signs_from": "\(record.signsFrom)"])
        return Responses.json(.object([
            "kid": .string(record.keyID), "signs_from": .number(Double(record.signsFrom)),
            "publish_delay": .number(Double(delay)), "dropped_previous": .bool(dropPrevious),
        ]))
    }
}

/// Runs an admin route's body once the request's admin token is checked.
typealias AdminGuard = @Sendable (Request, () async throws -> Response) async throws -> Response

/// Rotation defaults.
public enum RotationDefaults {
    /// A new key is published this many seconds before it signs, so that verifiers holding a cached key
    /// set meet its `kid` rarely (a verifier refetches on an unknown `kid` anyway).
    public static let publishDelay: Int64 = 600
}
