import LimitedLoginJOSE

/// Why a redirect URI is refused. The dialog shows these on an error page and never redirects.
public enum RedirectURIError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing
    case malformed(String)
    case notRegistered(String)
    /// A URI no app may register or be sent to (`RedirectURIRegistration`), and why.
    case refused(String, reason: String)

    public var description: String {
        switch self {
        case .missing:
            return "The request has no redirect_uri."
        case .malformed(let reason):
            return "The redirect_uri is malformed: \(reason)."
        case .notRegistered(let uri):
            return
                "The redirect_uri \(uri) is not registered for this app. Register it, or use fb{app-id}://authorize/ or a loopback address (http://127.0.0.1:{port}/…)."
        case .refused(let uri, let reason):
            return "The redirect URI \(uri) is refused: \(reason)."
        }
    }
}

/// Which redirect URIs an app may receive a login response at (docs/BEHAVIOUR.md, section 2).
///
/// Allowed: an exact, byte-for-byte match of a registered URI; `fb{appID}://authorize/`, and
/// `fb{appID}{suffix}://authorize/` for each URL-scheme suffix the app records; and a loopback
/// `http://127.0.0.1[:port]/path` or `http://[::1][:port]/path` (RFC 8252 section 7.3: any port).
/// `localhost` is not loopback here (RFC 8252 section 8.3: it may resolve elsewhere). A registered URI
/// that the registration rules refuse (stored before they existed, or written to the store directly) is
/// refused here too: the dialog never redirects to `javascript:` and the like.
enum RedirectURIRule {
    static let maximumLength = 2048

    static func check(_ uri: String, app: AppRecord) throws(RedirectURIError) {
        try checkWellFormed(uri)
        if app.redirectURIs.contains(where: { $0.hasSameBytes(as: uri) }) {
            try RedirectURIRegistration.check(uri)
            return
        }
        if uri.hasSameBytes(as: "fb\(app.id)://authorize/") { return }
        // The iOS SDK with a URL-scheme suffix: `fb{appID}{suffix}://authorize/`, for a suffix the app records.
        if app.urlSchemeSuffixes.contains(where: { uri.hasSameBytes(as: "fb\(app.id)\($0)://authorize/") }) { return }
        if try isLoopback(uri) { return }
        throw .notRegistered(uri)
    }

    /// Present, not too long, printable ASCII, without a fragment or a backslash.
    static func checkWellFormed(_ uri: String) throws(RedirectURIError) {
        guard !uri.isEmpty else { throw .missing }
        guard uri.utf8.count <= maximumLength else { throw .malformed("longer than \(maximumLength) bytes") }
        // By bytes: every byte of a non-ASCII character is 0x80 or above, and the two searches below are for
        // ASCII bytes (Foundation's `contains` on a String cost more than the rest of this check together).
        var fragment = false
        var backslash = false
        for byte in uri.utf8 {
            guard byte > 0x20, byte < 0x7F else {
                throw .malformed("it contains a space, a control character or a non-ASCII character")
            }
            if byte == UInt8(ascii: "#") { fragment = true }
            if byte == UInt8(ascii: "\\") { backslash = true }
        }
        guard !fragment else { throw .malformed("it contains a fragment (#)") }
        guard !backslash else { throw .malformed("it contains a backslash") }
    }

    /// True for a well-formed loopback HTTP URI; an error for one that starts like loopback but is not
    /// well-formed.
    private static func isLoopback(_ uri: String) throws(RedirectURIError) -> Bool {
        let rest: Substring
        if uri.hasPrefix("http://127.0.0.1") {
            rest = uri.dropFirst("http://127.0.0.1".count)
        } else if uri.hasPrefix("http://[::1]") {
            rest = uri.dropFirst("http://[::1]".count)
        } else {
            return false
        }
        var remainder = rest
        if remainder.first == ":" {
            let digits = remainder.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 5, let port = Int(digits), (1...65535).contains(port) else {
                throw .malformed("the loopback port must be a number from 1 to 65535")
            }
            remainder = remainder.dropFirst(1 + digits.count)
        }
        guard remainder.first == "/" else {
            throw .malformed("a loopback redirect needs a path starting with / right after the host and port")
        }
        return true
    }
}
