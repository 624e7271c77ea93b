import Hummingbird
import LimitedLoginJOSE

/// `GET /_admin/ca[?include_key=true]`: the certificate of the local certificate authority that
/// `serve --tls` made (PEM), to install where the provider should be trusted; with `include_key=true`
/// also its private key, the one way it leaves the store (`limited-login ca export --include-key`).
struct AdminCertificateAuthorityController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/ca") { request, _ in try await export(request) }
    }

    private func export(_ request: Request) async throws -> Response {
        let includeKey: Bool
        switch request.uri.queryParameters.get("include_key") {
        case nil, "false"?, "0"?: includeKey = false
        case "true"?, "1"?: includeKey = true
        case let other?: throw AdminError.badRequest("include_key must be true or false, not \"\(other)\".")
        }
        let store = services.store
        guard let certificate = try await store.settingValue(LocalCertificateAuthority.certificateSetting) else {
            throw AdminError.notFound("This provider has no certificate authority yet: start it with 'serve --tls' once to make one.")
        }
        var answer = ["certificate": certificate]
        if includeKey {
            guard let key = try await store.settingValue(LocalCertificateAuthority.keySetting) else { throw HTTPError(.internalServerError) }
            answer["private_key"] = key
            services.logger.notice("the CA's private key was exported through the admin API")
        }
        return try Responses.json(answer)
    }
}
