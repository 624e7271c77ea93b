import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// `GET /debug_token?input_token=…&access_token={app-id}|{app-secret}` (with or without a version): what an
/// app's server asks about a person's access token before trusting it, as the real endpoint answers it:
/// `{"data": {"app_id", "type": "USER", "application", "is_valid", "expires_at", "data_access_expires_at",
/// "issued_at", "scopes", "user_id"}}`; an invalid, expired or revoked token is `is_valid: false` with the
/// reason in `data.error`. The caller must use its app access token (a user token is refused, code 100), and
/// may inspect only its own app's tokens.
struct DebugTokenController: Sendable {
    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/debug_token") { request, _ in try await debug(request) }
        router.get("/:version/debug_token") { request, context in
            guard let version = context.parameters.get("version"), DialogController.isVersion(version) else { throw HTTPError(.notFound) }
            return try await debug(request)
        }
    }

    static let appTokenRequired = GraphError(
        "(#100) You must provide an app access token, or a user access token that is an owner or developer of the app", code: 100
    )

    private func debug(_ request: Request) async throws -> Response {
        try await GraphCall.answer(request, services: services) { query, caller in
            guard case .app(let app) = caller else { throw Self.appTokenRequired }
            let input: String?
            do { input = try query.single("input_token") } catch let error as FormParametersError {
                throw GraphError("The request is ambiguous: \(error.description).", code: 100)
            }
            guard let input, !input.isEmpty else { throw GraphError("(#100) The parameter input_token is required", code: 100) }
            return Responses.json(.object(["data": .object(try await data(of: input, viewer: app))]))
        }
    }

    private func data(of token: String, viewer: AppRecord) async throws -> JSONObject {
        let store = services.store
        guard token.utf8.count <= 1024, let record = try await store.accessToken(token) else {
            return Self.invalid("Invalid OAuth access token - Cannot parse access token", code: 190)
        }
        guard record.appID.hasSameBytes(as: viewer.id), let app = try await store.app(id: record.appID) else {
            throw GraphError("(#100) The App_id in the input_token did not match the Viewing App", code: 100)
        }
        let asid = try await store.appScopedID(appID: app.id, userID: record.userID)
        let grant = try await store.grant(appID: app.id, userID: record.userID)
        var data: JSONObject = [
            "app_id": .string(app.id), "type": "USER", "application": .string(app.name),
            "expires_at": .number(Double(record.expiresAt)), "data_access_expires_at": .number(Double(record.dataAccessExpiresAt)),
            "issued_at": .number(Double(record.issuedAt)), "user_id": .string(asid),
        ]
        let now = ProviderTime.now()
        let error: (String, Int, Int)?
        if record.expiresAt <= now {
            error = ("Error validating access token: Session has expired.", 190, 463)
        } else if record.revoked || grant?.installed != true {
            error = ("Error validating access token: The user has not authorized application \(app.id).", 190, 458)
        } else if try await !store.admits(app, userID: record.userID) {
            error = (GraphError.developmentModeWithoutRole.message, 190, 458)
        } else {
            error = nil
        }
        var scopes = grant?.granted.map(\.name).sorted() ?? []
        if record.dataAccessExpiresAt <= now { scopes = scopes.filter { $0 == Permission.publicProfile.name } }
        data["is_valid"] = .bool(error == nil)
        data["scopes"] = .array((error == nil ? scopes : []).map { .string($0) })
        if let error {
            data["error"] = .object(["message": .string(error.0), "code": .number(Double(error.1)), "subcode": .number(Double(error.2))])
        }
        return data
    }

    private static func invalid(_ message: String, code: Int) -> JSONObject {
        ["is_valid": false, "scopes": .array([]), "error": .object(["message": .string(message), "code": .number(Double(code))])]
    }
}
