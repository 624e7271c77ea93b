import HTTPTypes
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier

/// `POST /platform/uninstall` and `GET /platform/oidc/status` (docs/BEHAVIOUR.md, section 4).
struct UninstallController: Sendable {
    enum PersonLookup {
        case found(userID: String, appID: String)
        case refused(Response)
    }

    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("/platform/uninstall") { request, _ in try await uninstall(request) }
        router.get("/platform/oidc/status") { request, _ in try await status(request) }
    }

    static func error(_ message: String, code: Int, status: HTTPResponse.Status = .badRequest) -> Response {
        Responses.json(
            .object([
                "error": .object([
                    "message": .string(message), "type": "OAuthException", "code": .number(Double(code)),
                ])
            ]), status: status)
    }

    /// The person behind a verified token: (app-scoped ID → user ID), or an error response.
    /// `acceptingExpired`: for the status check, where the token only names the person (an app asks at
    /// start-up with the token it saved, which is often past its hour), as `id_token_hint` does.
    private func person(token: String?, appID: String?, acceptingExpired: Bool = false) async throws -> PersonLookup {
        // The status (which accepts an expired token) only asks whom it names: a token a key since dropped signed
        // still names them. The uninstall acts on the token, so it needs a key the provider publishes.
        guard let appID, !appID.isEmpty else { return .refused(Self.error("app_id is required.", code: 100)) }
        guard let token, !token.isEmpty else { return .refused(Self.error("id_token is required.", code: 100)) }
        guard try await services.store.app(id: appID) != nil else {
            return .refused(Self.error("No app with ID \(appID) is registered.", code: 100))
        }
        let verified: VerifiedIDToken
        do {
            verified = try await ReturnedTokenChecker(services: services).verify(
                token, appID: appID, acceptingExpired: acceptingExpired, includingDroppedKeys: acceptingExpired)
        } catch {
            return .refused(Self.error("The id_token is not valid for app \(appID): \(error.description)", code: 190))
        }
        guard let userID = try await services.store.userID(forAppScopedID: verified.claims.sub, appID: appID) else {
            return .refused(Self.error("The id_token names no user of app \(appID).", code: 190))
        }
        return .found(userID: userID, appID: appID)
    }

    private func uninstall(_ request: Request) async throws -> Response {
        var request = request
        // Refusals in Graph's shape (type and code), as every other answer of this endpoint.
        let read: Result<FormParameters, HTTPError>
        do { read = .success(try await request.formBody(limit: services.configuration.maximumBodySize)) } catch {
            guard let refusal = error as? HTTPError else { throw error }
            read = .failure(refusal)
        }
        let form: FormParameters
        switch read {
        case .success(let parameters): form = parameters
        case .failure(let refusal): return Self.error(refusal.body ?? "The body cannot be read.", code: 100, status: refusal.status)
        }
        let token: String?
        let appID: String?
        do {
            token = try form.single("id_token")
            appID = try form.single("app_id")
        } catch {
            return Self.error("The form is ambiguous: \(error.description).", code: 100)
        }
        switch try await person(token: token, appID: appID) {
        case .refused(let response):
            return response
        case .found(let userID, let appID):
            if try await services.store.uninstall(appID: appID, userID: userID), let app = try await services.store.app(id: appID) {
                try await services.callbacks.appRemoved(app, userID: userID)
            }
            services.logger.info("app uninstalled", metadata: ["app": "\(appID)"])
            return Responses.json(.object(["success": true]))
        }
    }

    private func status(_ request: Request) async throws -> Response {
        let query: FormParameters
        do { query = try FormParameters(encoded: request.uri.query ?? "") } catch {
            return Self.error("The query cannot be read: \(error.description).", code: 100)
        }
        let token = try? query.single("id_token")
        let appID: String?
        if let explicit = try? query.single("app_id") {
            appID = explicit
        } else {
            appID = token.flatMap { try? CompactJWS(parsing: $0) }.flatMap { $0.payload["aud"]?.stringValue }
        }
        switch try await person(token: token ?? nil, appID: appID, acceptingExpired: true) {
        case .refused(let response):
            return response
        case .found(let userID, let appID):
            let grant = try await services.store.grant(appID: appID, userID: userID)
            // A Development-mode app is not connected to a person without a role on it.
            var admitted = false
            if let app = try await services.store.app(id: appID) { admitted = try await services.store.admits(app, userID: userID) }
            var response = Responses.json(.object(["success": true]))
            response.headers[HTTPField.Name("fb-s")!] = (grant?.installed ?? false) && admitted ? "connected" : "not_authorized"
            return response
        }
    }
}
