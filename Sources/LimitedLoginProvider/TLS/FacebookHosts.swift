/// The host names of the real service that the real SDKs call, and which of the provider's paths each
/// serves when `serve --tls` is reached under that name (a hosts file or a proxy pointing it here).
///
/// - `www.facebook.com`, `m.facebook.com`, `facebook.com`: the login dialog (what the iOS SDK opens on
///   `m.`), the certificates (`m.facebook.com/.well-known/oauth/openid/certs/`), discovery and the JWKS,
///   and `/platform/…`.
/// - `limited.facebook.com`: discovery and the JWKS (`/.well-known/oauth/openid/jwks/`), the certificates,
///   and the dialog.
/// - `graph.facebook.com`, and `ep1.facebook.com` / `ep2.facebook.com` (where the iOS SDK sends Graph calls
///   and profile pictures on iOS 17 and later): the Graph API and `oauth/access_token`.
/// - `www.limited.facebook.com`: `/platform/…` (the uninstall endpoint the documentation names there).
///
/// The console, the admin API, `/health`, `/metrics`, the home page and the demo callback answer only at
/// the provider's own address.
enum FacebookHosts {
    static let www = "www.facebook.com"
    static let mobile = "m.facebook.com"
    static let bare = "facebook.com"
    static let limited = "limited.facebook.com"
    static let graph = "graph.facebook.com"
    static let graphEndpoint1 = "ep1.facebook.com"
    static let graphEndpoint2 = "ep2.facebook.com"
    static let wwwLimited = "www.limited.facebook.com"
    static let all = [www, mobile, bare, limited, graph, graphEndpoint1, graphEndpoint2, wwwLimited]

    /// The real issuer of Limited Login ID tokens.
    static let issuer = "https://www.facebook.com"
    static let discoveryJWKSURL = "https://limited.facebook.com/.well-known/oauth/openid/jwks/"
    static let authorizationEndpoint = "https://www.facebook.com/dialog/oauth/"

    /// The Facebook host a request names in its `Host` (without the port), or nil for any other host.
    static func host(of authority: String?) -> String? {
        guard let authority, mayName(authority) else { return nil }
        var name = authority.lowercased()
        if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]") { name = String(name[..<colon]) }
        if name.hasSuffix(".") { name.removeLast() }
        return all.contains(name) ? name : nil
    }

    private static let commonSuffix = Array("facebook.com".utf8)

    /// False when `authority` cannot name one of these hosts, none of which is without `facebook.com`
    /// (ASCII letters in any case): looked for in its bytes, without making a string, since every request
    /// asks (the provider's own address nearly always).
    private static func mayName(_ authority: String) -> Bool {
        let pattern = commonSuffix
        var authority = authority
        return authority.withUTF8 { bytes in
            guard bytes.count >= pattern.count else { return false }
            for start in 0...(bytes.count - pattern.count) {
                var index = 0
                // ASCII letters lowered by setting 0x20; the pattern's dot and letters are unchanged by it.
                while index < pattern.count, bytes[start + index] | 0x20 == pattern[index] { index += 1 }
                if index == pattern.count { return true }
            }
            return false
        }
    }

    /// Whether `path` is served under the Facebook host `host`.
    static func serves(_ path: String, on host: String) -> Bool {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let versioned = parts.first.map(DialogController.isVersion) ?? false
        let rest = versioned ? Array(parts.dropFirst()) : parts
        let isDialog = rest.first == "dialog" && rest.count >= 2 && rest[1] == "oauth"
        let isOIDC =
            trimmed == "/.well-known/openid-configuration" || trimmed == "/.well-known/oauth/openid/jwks"
            || trimmed == "/.well-known/oauth/openid/certs"
        let isPage = trimmed.hasPrefix("/assets/") || trimmed == "/favicon.ico"
        switch host {
        case graph, graphEndpoint1, graphEndpoint2:
            return (versioned && !isDialog) || trimmed == "/oauth/access_token" || trimmed == "/debug_token" || trimmed == "/favicon.ico"
        case wwwLimited:
            return parts.first == "platform"
        case limited:
            return isOIDC || isDialog || isPage
        default:
            return isOIDC || isDialog || isPage || parts.first == "platform"
        }
    }
}
