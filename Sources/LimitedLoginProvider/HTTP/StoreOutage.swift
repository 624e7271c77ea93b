import HTTPTypes
import Hummingbird
import LimitedLoginJOSE

/// What the provider answers when its store failed under a request (a full disk, a database that went
/// down, a read-only file): 503 with `Retry-After`, since the request may well succeed once the store is
/// back, in the one shape each kind of client reads: a page for a browser (the dialog, the console, or a
/// client that accepts HTML), the admin API's JSON under
/// `/_admin`, and the Graph API's error (code 2, `is_transient`) for everything else, as the real service
/// answers a temporary failure. The cause is named in words; the database's own text stays in the log.
struct StoreOutage {
    /// Seconds a client is asked to wait.
    static let retryAfter = 5

    /// The cause, in words, of a store failure that is worth retrying, or nil for one that is not (a
    /// duplicate, an unreadable stored value, an error of the database that is none of these: a bug, which a
    /// retry would not mend, stays a 500).
    static func cause(of error: any Error) -> String? {
        guard let store = error as? StoreError else { return nil }
        let text: String
        switch store {
        case .unavailable(let reason): text = reason
        case .database(let reason): text = reason
        case .duplicate, .corrupt, .newerSchema: return nil
        }
        let lowered = text.lowercased()
        if lowered.contains("disk is full") || lowered.contains("sqlite_full") || lowered.contains("no space left") || lowered.contains("disk full") {
            return "the disk is full"
        }
        if lowered.contains("readonly") || lowered.contains("read-only") || lowered.contains("read only") {
            return "the store is read-only"
        }
        if lowered.contains("connection") || lowered.contains("refused") || lowered.contains("unavailable") || lowered.contains("closed")
            || lowered.contains("timed out") || lowered.contains("timeout")
        {
            return "the database cannot be reached"
        }
        if lowered.contains("locked") || lowered.contains("busy") { return "the database is busy" }
        return nil
    }

    let pages: PageRenderer
    /// The provider's addresses: the page's home link is read when it is made (the port may be chosen late).
    let urls: ProviderURLs

    func response(for request: Request, cause: String) throws -> Response {
        let message = "The provider cannot use its store (\(cause)). Try again in a few seconds."
        var response: Response
        if request.uri.path.hasPrefix("/_admin") {
            response = Responses.json(AdminError(.serviceUnavailable, message).json, status: .serviceUnavailable)
        } else if Self.isForBrowsers(request) {
            let html = try pages.render(.error, ["title": "Service unavailable", "message": message, "homeURL": urls.baseURL + "/"])
            response = Responses.html(html, status: .serviceUnavailable)
        } else {
            response = Responses.json(
                .object([
                    "error": .object([
                        "message": .string(message), "type": "OAuthException", "code": 2, "is_transient": true,
                        "fbtrace_id": .string(RandomIdentifiers.secret(byteCount: 8)),
                    ])
                ]), status: .serviceUnavailable)
        }
        response.headers[.retryAfter] = String(Self.retryAfter)
        return response
    }

    /// The dialog and the console are pages whatever the client asks for; elsewhere, a client that accepts
    /// HTML is a browser.
    private static func isForBrowsers(_ request: Request) -> Bool {
        let path = request.uri.path
        return path.contains("/dialog/") || path.hasPrefix("/_console") || path == "/"
            || (request.headers[.accept] ?? "").lowercased().contains("text/html")
    }
}
