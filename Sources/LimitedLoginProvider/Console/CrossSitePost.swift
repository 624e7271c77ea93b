import HTTPTypes
import Hummingbird

/// Whether a form post came from another site's page, which the console's sign-in refuses (a page open in an
/// admin's browser could otherwise post wrong tokens from the admin's own address).
///
/// Browsers say where a post comes from: `Sec-Fetch-Site` (`same-origin`, or `none` when the person typed or
/// bookmarked it) and `Origin` (the posting page's scheme, host and port; `null` from a sandboxed frame or a
/// redirect across sites). A post is refused when either says another site: `Sec-Fetch-Site` `cross-site` or
/// `same-site` (another port or subdomain is another origin), or an `Origin` whose host and port are not the
/// request's `Host`. A client that sends neither (curl, scripts) is not a browser page and is let through.
enum CrossSitePost {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let message = "The console takes sign-ins from its own page only: open the console here and sign in on it."

    /// What says the post is another site's (the header and its value), or nil when it is not.
    static func refusal(_ request: Request) -> String? {
        if let site = request.headers[secFetchSite]?.lowercased(), site != "same-origin", site != "none" {
            return "Sec-Fetch-Site: \(site)"
        }
        guard let origin = request.headers[.origin] else { return nil }
        guard let host = request.head.authority?.lowercased(), authority(ofOrigin: origin) == host else {
            return "Origin: \(origin.prefix(200))"
        }
        return nil
    }

    /// The host and port of an origin (`http://127.0.0.1:8080` → `127.0.0.1:8080`), lowercased; nil for `null`
    /// or anything that is not `scheme://authority`.
    static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        let authority = origin[separator.upperBound...]
        guard !authority.isEmpty, !authority.contains("/") else { return nil }
        return authority.lowercased()
    }
}
