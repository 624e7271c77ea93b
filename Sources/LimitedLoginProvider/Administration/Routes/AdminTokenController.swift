import Foundation
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// `POST /_admin/tokens`: an ID token (and, for a classic login, an access token) for an app and a test
/// user without a browser, through the same issuer, claims, app-scoped IDs, friends rule and grants as the
/// dialog (docs/BEHAVIOUR.md, section 9). The grant is recorded as a consent would record it.
///
/// `{"app_id": "…", "user": "alice@example.com", "permissions": ["email"], "nonce": "…" | "raw_nonce": "…",
///   "tracking": "limited" | "enabled", "defect": "expired", "claims": {"email": "x@y", "picture": null},
///   "lifetime": 600, "iat": EPOCH, "exp": EPOCH}` → `{"id_token", "access_token"?, "claims"}`.
/// `"subject": "…"` in place of `"user"` mints for a subject no stored user has: `sub` is that value, the
/// profile claims are a stand-in "Test User"'s (email `<subject>@example.invalid`; `claims` replaces them),
/// no grant is recorded and the token is limited only (an access token needs a stored user).
/// `raw_nonce` puts its SHA-256 hex in the token (Firebase and Supabase hash the nonce they keep);
/// `claims` adds or replaces any claim (`null` removes one); `lifetime` sets `exp` from `iat`; `iat` and
/// `exp` set those times outright. Any other key is refused, naming it.
struct AdminTokenController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.post("/_admin/tokens") { request, _ in
            let body = try await AdminJSONBody.object(request, limit: services.configuration.maximumBodySize)
            let mint = try MintRequest(body, now: ProviderTime.now(), idTokenLifetime: services.configuration.lifetimes.idToken)
            return try Responses.json(try await AdminOperations(services: services).mintToken(mint), status: .created)
        }
        router.get("/_admin/tokens/defects") { request, _ in
            try Responses.json(["defects": TokenDefect.allCases.map { ["name": $0.rawValue, "summary": $0.summary] }])
        }
    }
}
