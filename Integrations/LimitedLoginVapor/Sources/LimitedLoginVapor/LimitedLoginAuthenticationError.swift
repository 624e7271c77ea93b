import LimitedLoginVerifier
import Vapor

/// Why a request was not let through; an `AbortError`, so Vapor's error middleware answers it with its status,
/// `WWW-Authenticate` (RFC 6750) and the reason.
public enum LimitedLoginAuthenticationError: AbortError, Equatable, Sendable, CustomStringConvertible {
    /// No `Authorization: Bearer <ID token>` header, on a route that requires a person.
    case missingToken
    /// The nonce policy found nothing in the request to check the token's nonce against.
    case missingNonce(String)
    /// The `Authorization` or nonce header is malformed or was sent more than once (`RequestTokenHeaders`,
    /// the verifier's rule, shared with the Hummingbird middleware).
    case malformedRequest(RequestTokenHeaders.Problem)
    /// The token failed verification; the case says why.
    case invalidToken(TokenVerificationError)
    /// `req.limitedLogin.verify()` was called before `app.limitedLogin.use(verifier:nonce:)`.
    case notConfigured

    public var status: HTTPResponseStatus {
        switch self {
        case .notConfigured: return .internalServerError
        // A key set that cannot be fetched says nothing about the token: the server is at fault, not the client.
        case .invalidToken(.keySetUnavailable): return .serviceUnavailable
        default: return .unauthorized
        }
    }

    public var reason: String { description }

    public var headers: HTTPHeaders {
        switch self {
        case .missingToken: return ["WWW-Authenticate": #"Bearer realm="limited-login""#]
        case .missingNonce, .malformedRequest: return ["WWW-Authenticate": #"Bearer realm="limited-login", error="invalid_request""#]
        case .invalidToken(.keySetUnavailable), .notConfigured: return [:]
        case .invalidToken: return ["WWW-Authenticate": #"Bearer realm="limited-login", error="invalid_token""#]
        }
    }

    public var description: String {
        switch self {
        case .missingToken: return "an Authorization: Bearer <ID token> header is required"
        case .missingNonce(let description): return description
        case .malformedRequest(let problem): return problem.description
        case .invalidToken(let error): return error.description
        case .notConfigured:
            return "Limited Login is not configured: call app.limitedLogin.use(verifier:nonce:) before verifying"
        }
    }
}
