import LimitedLoginVerifier
import Vapor

/// A Vapor authenticator for `Authorization: Bearer <ID token>`: verifies the token with `LimitedLoginVerifier`
/// and logs the ``LimitedLoginIdentity`` in (`req.auth`, `req.limitedLogin.identity`).
///
/// A request without an `Authorization` header passes through unauthenticated, as Vapor's authenticators do: put
/// `LimitedLoginIdentity.guardMiddleware()` after it, or call `req.limitedLogin.require()`, where a person is
/// required. A token that fails verification, a repeated or malformed `Authorization` or nonce header, or a
/// request without what the nonce policy needs, is refused
/// at once with a ``LimitedLoginAuthenticationError`` (401 and the reason) and never reaches the route.
public struct LimitedLoginAuthenticator: AsyncRequestAuthenticator {
    /// The verifier, kept for the life of the server (it holds the key-set cache).
    public let verifier: TokenVerifier
    /// How the nonce a request's token must carry is found; chosen by the caller, never defaulted.
    public let nonce: LimitedLoginNoncePolicy

    /// - Parameters:
    ///   - verifier: the verifier; one for the whole application.
    ///   - nonce: the nonce policy; write `.notChecked` out to skip the nonce.
    public init(verifier: TokenVerifier, nonce: LimitedLoginNoncePolicy) {
        self.verifier = verifier
        self.nonce = nonce
    }

    public func authenticate(request: Request) async throws {
        guard let token = try Self.bearerToken(of: request) else { return }
        request.auth.login(try await verify(token, for: request))
    }

    /// The request's bearer token, or nil without an `Authorization` header; a repeated or malformed one is
    /// refused (``LimitedLoginAuthenticationError/malformedRequest(_:)``), by the verifier's rule.
    static func bearerToken(of request: Request) throws -> String? {
        do { return try RequestTokenHeaders.bearerToken(authorizationValues: request.headers[.authorization]) } catch {
            throw LimitedLoginAuthenticationError.malformedRequest(error)
        }
    }

    /// Verifies `token` for `request` under the nonce policy; throws ``LimitedLoginAuthenticationError``.
    func verify(_ token: String, for request: Request) async throws -> LimitedLoginIdentity {
        let found: NonceCheck?
        do { found = try await nonce.check(request) } catch let problem as RequestTokenHeaders.Problem {
            throw LimitedLoginAuthenticationError.malformedRequest(problem)
        }
        guard let check = found else { throw LimitedLoginAuthenticationError.missingNonce(nonce.missingDescription) }
        do {
            return LimitedLoginIdentity(token: try await verifier.verify(token, nonce: check))
        } catch {
            throw LimitedLoginAuthenticationError.invalidToken(error)
        }
    }
}
