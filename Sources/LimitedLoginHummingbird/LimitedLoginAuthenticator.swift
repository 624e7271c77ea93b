import Hummingbird
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOCore

/// Middleware for an app's own server: verifies `Authorization: Bearer <ID token>` with
/// `LimitedLoginVerifier` and puts the identity in the request context.
///
/// A missing header passes through with no identity unless ``isRequired``; a malformed or repeated header
/// (`Authorization` or the nonce's, read by `RequestTokenHeaders`, the verifier's rule) or a token that fails verification is answered 401 with `WWW-Authenticate: Bearer error="invalid_token"`
/// (RFC 6750) and a JSON body that says why, and never reaches the route.
public struct LimitedLoginAuthenticator<Context: LimitedLoginRequestContext>: RouterMiddleware {
    public let verifier: TokenVerifier
    public let isRequired: Bool
    /// How the nonce a request's token must carry is found; chosen by the caller, never defaulted.
    public let nonce: LimitedLoginNoncePolicy<Context>

    /// - Parameters:
    ///   - verifier: the verifier, kept for the life of the server (it holds the key-set cache).
    ///   - nonce: the nonce policy; write `.notChecked` out to skip the nonce.
    ///   - isRequired: whether a request without an `Authorization` header is refused (else it passes
    ///     through with no identity).
    public init(verifier: TokenVerifier, nonce: LimitedLoginNoncePolicy<Context>, isRequired: Bool = true) {
        self.verifier = verifier
        self.isRequired = isRequired
        self.nonce = nonce
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let bearer: String?
        do { bearer = try RequestTokenHeaders.bearerToken(authorizationValues: request.headers[values: .authorization]) } catch {
            return Self.refusal(error: "invalid_request", description: error.description, includeError: true)
        }
        guard let token = bearer else {
            if isRequired {
                return Self.refusal(
                    error: "invalid_request", description: "an Authorization: Bearer <ID token> header is required", includeError: false)
            }
            return try await next(request, context)
        }
        let nonceCheck: NonceCheck?
        do { nonceCheck = try await nonce.check(request, context) } catch let problem as RequestTokenHeaders.Problem {
            return Self.refusal(error: "invalid_request", description: problem.description, includeError: true)
        }
        guard let nonceCheck else {
            return Self.refusal(error: "invalid_request", description: nonce.missingDescription, includeError: true)
        }
        let verified: VerifiedIDToken
        do {
            verified = try await verifier.verify(token, nonce: nonceCheck)
        } catch {
            return Self.refusal(error: "invalid_token", description: error.description, code: error.code, includeError: true)
        }
        var context = context
        context.limitedLoginIdentity = LimitedLoginIdentity(token: verified)
        return try await next(request, context)
    }

    static func refusal(error: String, description: String, code: String? = nil, includeError: Bool) -> Response {
        var challenge = "Bearer realm=\"limited-login\""
        if includeError { challenge += ", error=\"\(error)\"" }
        var body: [String: JSONValue] = ["error": .string(error), "error_description": .string(description)]
        if let code { body["reason"] = .string(code) }
        let bytes = JSONSerializer.serialize(.object(JSONObject(body)))
        return Response(
            status: .unauthorized,
            headers: [.wwwAuthenticate: challenge, .contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
