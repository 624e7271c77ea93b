import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// The other grant types of `oauth/access_token` (docs/BEHAVIOUR.md, section 5): `client_credentials` (the app access
/// token), `fb_exchange_token` (a new long-lived token for a valid one) and `fb_extend_sso_token` (the
/// refresh the iOS SDK's `AccessToken.refreshCurrentAccessToken` uses).
struct AccessTokenGrants: Sendable {
    let services: ProviderServices

    func grant(_ grantType: String, parameters: FormParameters) async throws -> Response {
        do {
            switch grantType {
            case "client_credentials":
                let app = try await authenticatedApp(parameters)
                return Responses.json(.object(["access_token": .string("\(app.id)|\(app.secret)"), "token_type": "bearer"]))
            case "fb_exchange_token":
                let app = try await authenticatedApp(parameters)
                let caller = try await GraphCallerResolver(services: services).resolve(try value(parameters, "fb_exchange_token"))
                guard case .user(_, let record, let tokenApp) = caller, tokenApp.id.hasSameBytes(as: app.id) else {
                    throw GraphError("fb_exchange_token must be a user access token of this app.", code: 100)
                }
                let issued = try await TokenIssuer(services: services).accessToken(
                    app: app, userID: record.userID, dataAccessExpiresAt: record.dataAccessExpiresAt
                )
                return Responses.json(
                    .object([
                        "access_token": .string(issued.token), "token_type": "bearer", "expires_in": .number(Double(issued.expiresIn)),
                    ]))
            case "fb_extend_sso_token":
                // With `appsecret_proof` checked as on every Graph call made with a person's token: an app that
                // requires it refreshes only from its server.
                let caller = try await GraphCallerResolver(services: services).resolve(
                    try value(parameters, "access_token"), query: parameters)
                guard case .user(_, let record, let app) = caller else {
                    throw GraphError("fb_extend_sso_token needs a user access token.", code: 100)
                }
                let issued = try await TokenIssuer(services: services).accessToken(
                    app: app, userID: record.userID, dataAccessExpiresAt: record.dataAccessExpiresAt
                )
                return Responses.json(
                    .object([
                        "access_token": .string(issued.token), "token_type": "bearer",
                        "expires_at": .number(Double(ProviderTime.now() + issued.expiresIn)),
                        "expires_in": .number(Double(issued.expiresIn)),
                        "data_access_expiration_time": .number(Double(issued.dataAccessExpiresAt)),
                        "graph_domain": .string(app.graphDomain),
                    ]))
            default:
                throw GraphError("Unsupported grant_type \(grantType).", code: 100)
            }
        } catch let error as GraphError {
            return error.response
        }
    }

    private func value(_ parameters: FormParameters, _ name: String) throws(GraphError) -> String? {
        do { return try parameters.single(name) } catch { throw GraphError("The request is ambiguous: \(error.description).", code: 100) }
    }

    private func authenticatedApp(_ parameters: FormParameters) async throws -> AppRecord {
        guard let appID = try value(parameters, "client_id"), let app = try await services.store.app(id: appID) else {
            throw GraphError("Missing or unknown client_id.", code: 101)
        }
        guard let secret = try value(parameters, "client_secret"), constantTimeEquals(secret, app.secret) else {
            throw GraphError("Error validating client secret.", code: 1)
        }
        return app
    }
}
