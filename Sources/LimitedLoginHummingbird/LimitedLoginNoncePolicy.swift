import Hummingbird
import LimitedLoginVerifier

/// How ``LimitedLoginAuthenticator`` learns the nonce a request's ID token must carry.
///
/// There is no default: a middleware that quietly skipped the nonce would accept a token stolen from
/// another login. Choose one of these, or write ``notChecked`` out where skipping it is what you mean.
///
/// - ``sha256OfRawNonce(fromHeader:)``: the Firebase convention. The app logs in with the SHA-256 of a raw
///   nonce and sends the raw nonce along; someone who only has the token (which holds the hash) cannot.
/// - ``expected(_:)``: the nonce your server handed out, from the session or a store; the strongest.
/// - ``exact(fromHeader:)``: the token's nonce must equal a header the app sends. It proves only that the
///   caller knows the nonce, which anyone holding the token can read from it.
/// - ``notChecked``: for tokens an SDK refreshed with a nonce of its own.
public struct LimitedLoginNoncePolicy<Context: RequestContext>: Sendable {
    /// The check for one request, or nil when the request lacks what the policy needs (then it is refused).
    let check: @Sendable (Request, Context) async throws -> NonceCheck?
    /// What a refusal says when ``check`` finds nothing.
    let missingDescription: String

    /// A policy from a closure: return the check for this request (`.exact(nonceFromSession)`, say), or nil
    /// to refuse the request because it has no nonce to check against (401, `invalid_request`).
    public static func expected(_ check: @escaping @Sendable (Request, Context) async throws -> NonceCheck?) -> Self {
        Self(check: check, missingDescription: "the request has no nonce to check the ID token against")
    }

    /// The token's nonce must equal this header's value; a request without the header, or with it more than
    /// once, is refused.
    public static func exact(fromHeader name: HTTPFields.Element.Name = .limitedLoginNonce) -> Self {
        Self(
            check: { request, _ in try RequestTokenHeaders.single(request.headers[values: name], header: "\(name)").map { .exact($0) } },
            missingDescription: "the \(name) header is required: it carries the login's nonce")
    }

    /// The token's nonce must be the lowercase hex SHA-256 of this header's value (the raw nonce); a request
    /// without the header is refused.
    public static func sha256OfRawNonce(fromHeader name: HTTPFields.Element.Name = .limitedLoginNonce) -> Self {
        Self(
            check: { request, _ in
                try RequestTokenHeaders.single(request.headers[values: name], header: "\(name)").map { .sha256OfRawNonce($0) }
            },
            missingDescription: "the \(name) header is required: it carries the login's raw nonce")
    }

    /// The nonce is not compared: opt in only for tokens an SDK refreshed with a nonce of its own.
    public static var notChecked: Self {
        Self(check: { _, _ in .notChecked }, missingDescription: "")
    }
}

// HTTPField itself is not among the names Hummingbird exports; HTTPFields is.
extension HTTPFields.Element.Name {
    /// `X-Limited-Login-Nonce`: the header the header-based nonce policies read by default.
    public static var limitedLoginNonce: Self {
        guard let name = Self("X-Limited-Login-Nonce") else { preconditionFailure("the constant header name is valid") }
        return name
    }
}
