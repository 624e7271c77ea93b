import HTTPTypes
import Hummingbird

/// Whether a form post came from another site's page, which the console's sign-in refuses (a page open in an
/// admin's browser could otherwise post wrong tokens from the admin's own address).
///
/// Browsers say where a post comes from: `Sec-Fetch-Site` (`same-origin`, or `none` when the person typed or
/// bookmarked it) and `Origin` (the posting page's scheme, host and port; `null` from a sandboxed frame or a
/// redirect across sites). A browser that sends `Sec-Fetch-Site` is judged by it alone: refused unless
/// `same-origin` or `none` (`same-site` is another port or subdomain, another origin). One that sends only
/// `Origin` is refused unless its host and port are the request's `Host` or the provider's public URL's (behind
/// a proxy the two differ: `Host: 127.0.0.1:8080` for `https://login.example`). A client that sends neither
/// (curl, scripts) is not a browser page and is let through.
enum CrossSitePost {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let message = "The console takes sign-ins from its own page only: open the console here and sign in on it."

    /// What says the post is another site's (the header and its value), or nil when it is not.
    static func refusal(_ request: Request, publicBaseURL: String) -> String? {
        if let site = request.headers[secFetchSite]?.lowercased() {
            return site == "same-origin" || site == "none" ? nil : "Sec-Fetch-Site: \(site)"
        }
        guard let origin = request.headers[.origin] else { return nil }
        let from = authority(ofOrigin: origin)
        if let from, from == request.head.authority?.lowercased() || from == authority(ofOrigin: publicBaseURL) { return nil }
        return "Origin: \(origin.prefix(200))"
    }

    /// The host and port of an origin (`http://127.0.0.1:8080` → `127.0.0.1:8080`; a base URL's path is cut),
    /// lowercased; nil for `null` or anything that is not `scheme://authority`.
    static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        var authority = origin[separator.upperBound...]
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains("/") else { return nil }
        return authority.lowercased()
    }
}
