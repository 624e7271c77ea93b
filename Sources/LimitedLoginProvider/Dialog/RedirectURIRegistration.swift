/// Which redirect URIs an app may register (admin API, fixtures), and which registered ones the dialog
/// will still redirect to.
///
/// Allowed: `https` with a host; `http` only to loopback (`127.0.0.1`, `[::1]`, `localhost`); an app's
/// own scheme (`fb{appID}://…`, `com.example.app:/…`). Refused: schemes that run code or reach local or
/// in-browser data when a browser follows them (`javascript`, `data`, `file`, `vbscript`, `blob`), and
/// plain `http` to anywhere else (a login response must not cross the network in the clear).
enum RedirectURIRegistration {
    static let refusedSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "blob"]
    static let loopbackHosts: Set<String> = ["127.0.0.1", "[::1]", "localhost"]

    /// Throws ``RedirectURIError/refused(_:reason:)``, whose message names the URI.
    static func check(_ uri: String) throws(RedirectURIError) {
        do { try RedirectURIRule.checkWellFormed(uri) } catch {
            switch error {
            case .malformed(let reason): throw .refused(uri, reason: reason)
            default: throw .refused(uri, reason: "it is empty")
            }
        }
        guard let colon = uri.firstIndex(of: ":") else {
            throw .refused(uri, reason: "it has no scheme")
        }
        let scheme = uri[..<colon]
        guard isScheme(scheme) else { throw .refused(uri, reason: "its scheme is malformed") }
        let lowered = scheme.lowercased()
        if refusedSchemes.contains(lowered) {
            throw .refused(
                uri,
                reason: "a browser sent to a \(lowered): URI runs code or opens local data; "
                    + "use https, http on loopback (127.0.0.1, [::1], localhost) or an app scheme such as fb{app-id}://authorize/")
        }
        let rest = uri[uri.index(after: colon)...]
        switch lowered {
        case "https":
            guard rest.hasPrefix("//"), let host = host(of: rest.dropFirst(2)), !host.isEmpty else {
                throw .refused(uri, reason: "an https redirect URI needs a host (https://host/path)")
            }
        case "http":
            guard rest.hasPrefix("//"), let host = host(of: rest.dropFirst(2)), loopbackHosts.contains(host.lowercased()) else {
                throw .refused(uri, reason: "http is allowed only to 127.0.0.1, [::1] or localhost; use https")
            }
        default:
            guard !rest.isEmpty else { throw .refused(uri, reason: "it has a scheme and nothing after it") }
        }
    }

    /// RFC 3986 section 3.1: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let first = text.utf8.first, isLetter(first) else { return false }
        return text.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    /// The host of `authority/path…`: up to the first `/`, `?`, or the port's `:` (an IPv6 literal keeps its
    /// brackets); nil when it holds user information (`user@host`), which only serves to mislead.
    private static func host(of authorityAndPath: Substring) -> Substring? {
        let authority = authorityAndPath.prefix { $0 != "/" && $0 != "?" }
        guard !authority.utf8.contains(UInt8(ascii: "@")) else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return authority[...close]
        }
        return authority.prefix { $0 != ":" }
    }
}
