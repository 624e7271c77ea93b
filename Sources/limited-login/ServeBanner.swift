import LimitedLoginProvider

/// What `serve` prints once it listens: the provider's addresses (the console's among them), the TLS authority, a first start's demo
/// data and admin token, the apps and the first test users, and a dialog URL to open.
struct ServeBanner: Sendable {
    let provider: LimitedLoginProvider
    let apps: [AppRecord]
    /// The first test users (``usersInBanner`` of them at most), and how many there are in all.
    let users: [TestUserRecord]
    let userCount: Int
    /// Where the CA certificate was written (`--ca-file`, or for `--exec`), when it was.
    let caFile: String?
    let seededDemoData: Bool
    /// The admin token made at a first start, shown once.
    let madeAdminToken: String?
    let host: String
    let publicURL: String?

    func text(baseURL: String) -> String {
        let urls = provider.urls
        var lines = [
            "Limited Login provider running at \(baseURL)",
            "  issuer:     \(urls.issuer)",
            "  discovery:  \(urls.discoveryURL)",
            "  JWKS:       \(urls.jwksURL)",
            "  certs:      \(urls.certificatesURL)",
            "  console:    \(baseURL)/_console (sign in with the admin token)",
        ]
        if provider.certificateAuthorityPEM != nil {
            lines.append(
                "  HTTPS with a certificate from this provider's local CA, also for www., m., limited., www.limited., graph., ep1. and ep2.facebook.com"
            )
            lines.append(
                caFile.map { "  CA certificate: \($0) (trust it where clients run; see 'limited-login ca export --help')" }
                    ?? "  CA certificate: 'limited-login ca export > ca.pem' (trust it where clients run)")
        }
        if seededDemoData { lines.append("First start: seeded the demo app and test users (password \"password\").") }
        if let madeAdminToken {
            lines.append("Admin token (shown once; keep it): \(madeAdminToken)")
            lines.append("  e.g. limited-login keys list --provider \(baseURL) --admin-token \(madeAdminToken)")
        }
        for app in apps {
            lines.append("  app \(app.name): ID \(app.id)")
        }
        // Who can sign in: the first few test users by email and ID (the dialog and `friends add` take either).
        for user in users.prefix(Self.usersInBanner) {
            lines.append("  test user \(user.email): ID \(user.id)")
        }
        if userCount > Self.usersInBanner {
            lines.append("  … and \(userCount - Self.usersInBanner) more test users ('limited-login users list')")
        }
        if let warning = Self.publicURLWarning(host: host, publicURL: publicURL) { lines.append(warning) }
        if let first = apps.first {
            lines.append("Open a limited login dialog for \(first.name):")
            lines.append("  \(urls.limitedDialogURL(appID: first.id))")
        }
        lines.append("Home page: \(baseURL)/   (Ctrl-C stops)")
        return lines.joined(separator: "\n")
    }

    /// How many test users the banner names.
    static let usersInBanner = 5

    /// With `--host` on every interface and no `--public-url`, the issuer is an address no one else can use.
    static func publicURLWarning(host: String, publicURL: String?) -> String? {
        guard publicURL == nil, host == "0.0.0.0" || host == "::" || host == "[::]" else { return nil }
        return
            "Warning: --host \(host) without --public-url: tokens name this unroutable address as their issuer, and the dialog's links use it. Give --public-url with the address clients use (e.g. http://my-host:8080)."
    }
}
