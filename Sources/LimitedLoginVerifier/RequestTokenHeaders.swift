/// How an app's server reads the ID token (`Authorization: Bearer <ID token>`) and a nonce header from a
/// request: one rule for every integration (the Hummingbird middleware, the Vapor authenticator), so that they
/// cannot drift apart. Hand over each field's value as received (`HTTPFields[values:]`, Vapor's
/// `HTTPHeaders[name]`), not a combined one.
///
/// A header sent more than once is refused, never read as its first or last value: two `Authorization`
/// headers, or two nonce headers, are a client bug or an attempt to make two parts of a server disagree on
/// which one counts. Header names are compared without case by the HTTP libraries that hand the values over.
public enum RequestTokenHeaders {
    /// Why a request's headers cannot be read.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The named header came more than once.
        case repeated(header: String)
        /// The `Authorization` header is not `Bearer <token>` (one space, a non-empty token without spaces).
        case malformedAuthorization

        public var description: String {
            switch self {
            case .repeated(let header): return "the \(header) header must be sent once, not more than once"
            case .malformedAuthorization: return "the Authorization header must be \"Bearer <ID token>\""
            }
        }
    }

    /// The bearer token of the request's `Authorization` values (each value as received): nil when there is
    /// none; throws when the header is repeated or is not `Bearer <token>` (the scheme in any case).
    public static func bearerToken(authorizationValues values: [String]) throws(Problem) -> String? {
        guard let header = try single(values, header: "Authorization", keepingEmpty: true) else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty, !parts[1].contains(" ") else {
            throw .malformedAuthorization
        }
        return String(parts[1])
    }

    /// The one value of the header named `header` (for messages): nil when absent or empty; throws when it
    /// was sent more than once.
    public static func single(_ values: [String], header: String) throws(Problem) -> String? {
        try single(values, header: header, keepingEmpty: false)
    }

    private static func single(_ values: [String], header: String, keepingEmpty: Bool) throws(Problem) -> String? {
        guard values.count <= 1 else { throw .repeated(header: header) }
        guard let value = values.first, keepingEmpty || !value.isEmpty else { return nil }
        return value
    }
}
