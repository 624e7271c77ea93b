import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE

/// OpenID discovery, the JWKS and the certificate map (SPEC section 4), each with and without a
/// trailing slash.
struct OpenIDController: Sendable {
    let services: ProviderServices

    /// Key sets may be cached for an hour; a rotation publishes the next key well before it signs.
    static let keySetCacheControl = "public, max-age=3600"

    func addRoutes(to router: Router<BasicRequestContext>) {
        // The router matches a path with and without its trailing slash.
        router.get("/.well-known/openid-configuration") { _, _ in discovery() }
        router.get("/.well-known/oauth/openid/jwks") { _, _ in
            Responses.jsonBytes(try await services.keyring.current().keySet.serialized(), cacheControl: Self.keySetCacheControl)
        }
        router.get("/.well-known/oauth/openid/certs") { _, _ in
            Responses.jsonBytes(
                CertificateMap.document(try await services.keyring.current().certificates),
                cacheControl: Self.keySetCacheControl
            )
        }
    }

    private func discovery() -> Response {
        let urls = services.urls
        let claims = [
            "iss", "aud", "sub", "iat", "exp", "jti", "nonce", "at_hash", "name", "given_name", "middle_name",
            "family_name", "email", "picture", "user_friends", "user_birthday", "user_age_range", "user_hometown",
            "user_location", "user_gender", "user_link",
        ]
        let scopes = Set(["openid"] + Permission.limitedSet.map(\.name)).sorted()
        // Under a Facebook host name (`serve --tls`), the real service's addresses.
        let facebook = FacebookHostContext.host != nil
        let document: JSONValue = .object([
            "issuer": .string(urls.issuer),
            "authorization_endpoint": .string(facebook ? FacebookHosts.authorizationEndpoint : urls.authorizationEndpoint),
            "jwks_uri": .string(facebook ? FacebookHosts.discoveryJWKSURL : urls.jwksURL),
            "response_types_supported": ["id_token", "token id_token"],
            "response_modes_supported": ["fragment", "query", "form_post"],
            "subject_types_supported": ["pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "claims_supported": .array(claims.map { .string($0) }),
            "scopes_supported": .array(scopes.map { .string($0) }),
            "code_challenge_methods_supported": ["S256"],
        ])
        return Responses.json(document, cacheControl: "public, max-age=3600")
    }
}
