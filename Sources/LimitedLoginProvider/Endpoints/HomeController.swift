import Hummingbird

/// `GET /`: what this provider serves, its apps and its test users.
struct HomeController: Sendable {
    let services: ProviderServices

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in try await home() }
    }

    private func home() async throws -> Response {
        let urls = services.urls
        let apps = try await services.store.apps().map { app -> [String: String] in
            ["id": app.id, "name": app.name, "limitedDialogURL": urls.limitedDialogURL(appID: app.id)]
        }
        let users = try await services.store.users().map { ["name": $0.fullName, "email": $0.email, "id": $0.id] }
        let html = try services.pages.render(
            .home,
            [
                "title": "limited-login provider",
                "baseURL": urls.baseURL, "issuer": urls.issuer, "discoveryURL": urls.discoveryURL,
                "jwksURL": urls.jwksURL, "certsURL": urls.certificatesURL, "apps": apps, "users": users,
            ])
        return Responses.html(html)
    }
}
