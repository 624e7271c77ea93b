import HTTPTypes
import Hummingbird
import LimitedLoginJOSE

/// The admin token's check in front of every `/_admin` route: `Authorization: Bearer <admin token>`, the
/// scheme in any case. A missing token is a 401, a wrong one a 403, and too many wrong ones from an address
/// a 429 with Retry-After (``AdminTokenAttempts``); each in the admin API's error shape. The right token is
/// never refused, however many wrong ones came before it.
struct AdminGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let services: ProviderServices
    let adminToken: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = AdminController.bearerToken(request.headers[.authorization]) else {
            var response = Responses.json(
                AdminError(.unauthorized, "The admin API needs Authorization: Bearer <admin token>.").json, status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer realm=\"limited-login admin\""
            return response
        }
        // The right token is always let in: wrong ones are counted only to slow a flood of guesses, so nobody
        // without the token can keep its holder out by sending wrong ones (docs/SECURITY.md, "The admin token").
        if constantTimeEquals(token, adminToken) { return try await next(request, context) }
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
