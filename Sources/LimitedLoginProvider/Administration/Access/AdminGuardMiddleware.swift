import HTTPTypes
import Hummingbird
import LimitedLoginJOSE

/// The check in front of every `/_admin` route: `Authorization: Bearer <token>`, the scheme in any case,
/// where the token is the organisation's admin token or a scoped credential's (``AdminCaller``). A missing
/// token is a 401, a revoked credential a 401, a wrong token a 403, and too many wrong ones from an address a
/// 429 with Retry-After (``AdminTokenAttempts``); a scoped credential on a route it may not use, or on
/// another app, a 403 naming what it may touch (``AdminRouteAccess``). Each in the admin API's error shape.
/// A right token is never refused, however many wrong ones came before it. Every write that succeeds is
/// recorded in the admin log (``AdminWriteLog``).
struct AdminGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let services: ProviderServices
    let adminToken: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = AdminController.bearerToken(request.headers[.authorization]) else {
            return Self.unauthorized("The admin API needs Authorization: Bearer <admin token>.")
        }
        let caller: AdminCaller
        // The right token is always let in: wrong ones are counted only to slow a flood of guesses, so nobody
        // without the token can keep its holder out by sending wrong ones (docs/SECURITY.md, "The admin token").
        if constantTimeEquals(token, adminToken) {
            caller = .organisation
        } else if AdminCredentialToken.isCredentialShaped(token),
            let credential = try await services.store.adminCredential(tokenSHA256: AdminCredentialToken.hash(token))
        {
            guard credential.revokedAt == nil else { return Self.unauthorized("The credential \(credential.name) was revoked.") }
            caller = .credential(name: credential.name, apps: Set(credential.apps))
            let endpoint = context.endpointPath ?? request.uri.path
            switch AdminRouteAccess.of(request.method, endpoint) {
            case nil:
                return try caller.outOfScope("Only the organisation's admin token may use \(request.method.rawValue) \(endpoint).")
                    .response(from: request, context: context)
            case .appInPath(let parameter):
                let app = context.parameters.get(parameter) ?? ""
                if !caller.mayTouch(app: app) {
                    return try caller.outOfScope("App \(app) is not this credential's.").response(from: request, context: context)
                }
            case .keptByOperation, .anyCaller: break
            }
        } else {
            return await refuse(request)
        }
        let response = try await AdminCaller.$current.withValue(caller) { try await next(request, context) }
        if request.method != .get, request.method != .head, response.status.code < 400 {
            await services.adminLog.record(
                by: caller, operation: "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)", target: request.uri.path)
        }
        return response
    }

    /// A wrong token: 403, or 429 once an address has sent too many.
    private func refuse(_ request: Request) async -> Response {
        let address = ClientAddress.of(request, trusting: services.configuration.trustedProxies)
        let now = ProviderTime.systemNow()
        if let retryAfter = await services.adminTokenAttempts.refusal(address: address, now: now) {
            var response = Responses.json(
                AdminError(.tooManyRequests, AdminController.tooManyWrongTokens(retryAfter: retryAfter)).json, status: .tooManyRequests)
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        await services.adminTokenAttempts.failed(address: address, now: now)
        services.logger.notice("admin API refused: wrong admin token")
        return Responses.json(AdminError(.forbidden, "The admin token is wrong.").json, status: .forbidden)
    }

    private static func unauthorized(_ message: String) -> Response {
        var response = Responses.json(AdminError(.unauthorized, message).json, status: .unauthorized)
        response.headers[.wwwAuthenticate] = "Bearer realm=\"limited-login admin\""
        return response
    }
}

extension AdminController {
    static func tooManyWrongTokens(retryAfter: Int64) -> String {
        "Too many wrong admin tokens from this address. Try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s")."
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
}
