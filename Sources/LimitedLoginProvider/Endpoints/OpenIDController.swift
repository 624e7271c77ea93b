import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE
import Synchronization

/// OpenID discovery, the JWKS and the certificate map (docs/BEHAVIOUR.md, section 4), each with and without a
/// trailing slash.
struct OpenIDController: Sendable {
    let services: ProviderServices
    /// The discovery document for the current base URL (which a provider on port 0 learns when it binds).
    private let discoveryDocument = PreparedDiscovery()

    /// Key sets may be cached for an hour; a rotation publishes the next key well before it signs.
    static let keySetCacheControl = SigningKeyring.keySetCacheControl

    func addRoutes(to router: Router<BasicRequestContext>) {
        // The router matches a path with and without its trailing slash. Each document is prepared when
        // what it says changes (the keys, the base URL), with an ETag; a matching If-None-Match gets 304.
        // Only a provider serving HTTPS answers for the Facebook host names: on plain HTTP a client's own
        // `Host: www.facebook.com` would otherwise get (and a cache keep for an hour) a document naming
        // addresses this provider does not serve.
        let servesFacebookHosts = services.tls != nil
        router.getAndHead("/.well-known/openid-configuration") { request, _ in
            discoveryDocument.document(for: services.urls, facebookHost: servesFacebookHosts && FacebookHostContext.host != nil).response(to: request)
        }
        router.getAndHead("/.well-known/oauth/openid/jwks") { request, _ in
            guard services.store.location.isShared else { return try await services.keyring.keySetDocument().response(to: request) }
            return try await ClusterSigning.keys(services).keySetDocument.response(to: request)
        }
        router.getAndHead("/.well-known/oauth/openid/certs") { request, _ in
            guard services.store.location.isShared else { return try await services.keyring.certificatesDocument().response(to: request) }
            return try await ClusterSigning.keys(services).certificates.document().response(to: request)
        }
    }

    /// The discovery document for these URLs; under a Facebook host name (`serve --tls`), with the real
    /// service's addresses.
    static func discoveryBytes(_ urls: ProviderURLs, facebookHost facebook: Bool = false) -> [UInt8] {
        let claims = [
            "iss", "aud", "sub", "iat", "exp", "jti", "nonce", "at_hash", "name", "given_name", "middle_name",
            "family_name", "email", "picture", "user_friends", "user_birthday", "user_age_range", "user_hometown",
            "user_location", "user_gender", "user_link",
        ]
        let scopes = Set(["openid"] + Permission.limitedSet.map(\.name)).sorted()
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
        return JSONSerializer.serialize(document)
    }
}

/// The discovery documents (at the provider's own address, and under a Facebook host name), each made
/// again only when the base URL it was made for changes.
final class PreparedDiscovery: Sendable {
    /// By whether it is the Facebook host names' document.
    private let prepared = Mutex<[Bool: (baseURL: String, document: PreparedDocument)]>([:])

    func document(for urls: ProviderURLs, facebookHost: Bool) -> PreparedDocument {
        let baseURL = urls.baseURL
        if let current = prepared.withLock({ $0[facebookHost] }), current.baseURL == baseURL { return current.document }
        let document = PreparedDocument(
            OpenIDController.discoveryBytes(urls, facebookHost: facebookHost), cacheControl: "public, max-age=3600"
        )
        prepared.withLock { $0[facebookHost] = (baseURL, document) }
        return document
    }
}
