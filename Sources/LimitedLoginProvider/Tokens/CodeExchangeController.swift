import Crypto
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// `[/{version}]/oauth/access_token`. With a `code`: the end of the classic code flow. With another
/// `grant_type`: ``AccessTokenGrants``. The code is
/// single-use, bound to its app and redirect URI, and to its PKCE challenge when it had one (then the
/// `code_verifier` replaces the app secret, as for a public client).
struct CodeExchangeController: Sendable {
    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/oauth/access_token") { request, _ in try await exchange(request) }
        router.post("/oauth/access_token") { request, _ in try await exchange(request) }
        router.get("/:version/oauth/access_token") { request, _ in try await exchange(request) }
        router.post("/:version/oauth/access_token") { request, _ in try await exchange(request) }
    }

    private func exchange(_ request: Request) async throws -> Response {
        var request = request
        var parameters: FormParameters
        do { parameters = try FormParameters(encoded: request.uri.query ?? "") } catch {
            return GraphError("The query cannot be read: \(error.description).", code: 100).response
        }
        if request.method == .post {
            for pair in try await request.formBody(limit: services.configuration.maximumBodySize).pairs {
                parameters.append(pair.name, pair.value)
            }
        }
        let fields: (appID: String?, redirectURI: String?, code: String?, verifier: String?, secret: String?, grantType: String?)
        do {
            fields = (
                try parameters.single("client_id"), try parameters.single("redirect_uri"), try parameters.single("code"),
                try parameters.single("code_verifier"), try parameters.single("client_secret"), try parameters.single("grant_type")
            )
        } catch {
            return GraphError("The request is ambiguous: \(error.description).", code: 100).response
        }
        if let grantType = fields.grantType, !grantType.hasSameBytes(as: "authorization_code") {
            return try await AccessTokenGrants(services: services).grant(grantType, parameters: parameters)
        }
        guard let appID = fields.appID, let app = try await services.store.app(id: appID) else {
            return GraphError("Missing or unknown client_id.", code: 101).response
        }
        guard let code = fields.code, !code.isEmpty else { return GraphError("Missing code.", code: 100).response }
        guard let record = try await services.store.consumeAuthorizationCode(code) else {
            return GraphError("This authorization code has been used or does not exist.", code: 100, subcode: 36009).response
        }
        guard record.appID.hasSameBytes(as: app.id) else {
            return GraphError("This authorization code was issued to another app.", code: 100, subcode: 36008).response
        }
        guard record.expiresAt > ProviderTime.now() else {
            return GraphError("This authorization code has expired.", code: 100, subcode: 36007).response
        }
        guard let redirectURI = fields.redirectURI, redirectURI.hasSameBytes(as: record.redirectURI) else {
            return GraphError("redirect_uri must be the one the code was issued for.", code: 100, subcode: 36008).response
        }
        if let challenge = record.codeChallenge {
            guard let verifier = fields.verifier.flatMap(CodeVerifier.init(string:)), verifier.challenge.hasSameBytes(as: challenge) else {
                return GraphError("The code_verifier does not match the code_challenge.", code: 100, subcode: 36008).response
            }
        } else {
            guard let secret = fields.secret, constantTimeEquals(secret, app.secret) else {
                return GraphError("Error validating client secret.", code: 1).response
            }
        }
        guard let user = try await services.store.user(id: record.userID) else {
            return GraphError("The person of this code no longer exists.", code: 190).response
        }
        // A code issued while the app was Live is worth nothing once it is in Development mode, to a person
        // without a role on it.
        guard try await services.store.admits(app, userID: user.id) else { return GraphError.developmentModeWithoutRole.response }
        let issuer = TokenIssuer(services: services)
        let issued = try await issuer.accessToken(app: app, userID: user.id)
        var body: [String: JSONValue] = [
            "access_token": .string(issued.token), "token_type": "bearer", "expires_in": .number(Double(issued.expiresIn)),
            "data_access_expiration_time": .number(Double(issued.dataAccessExpiresAt)),
        ]
        if let nonce = record.nonce {
            body["id_token"] = .string(
                try await issuer.idToken(
                    app: app, user: user, granted: record.granted, nonce: nonce, accessToken: issued.token
                ).token)
        }
        return Responses.json(.object(JSONObject(body)))
    }
}
