import LimitedLoginVerifier
import Vapor

extension Request {
    /// Limited Login for this request: the identity an authenticator verified, or a verification here.
    public var limitedLogin: LimitedLogin { LimitedLogin(request: self) }

    /// `req.limitedLogin`.
    public struct LimitedLogin: Sendable {
        let request: Request

        /// The identity ``LimitedLoginAuthenticator`` logged in, or nil.
        public var identity: LimitedLoginIdentity? { request.auth.get(LimitedLoginIdentity.self) }

        /// The identity ``LimitedLoginAuthenticator`` logged in; throws
        /// ``LimitedLoginAuthenticationError/missingToken`` (401) when there is none.
        public func require() throws -> LimitedLoginIdentity {
            guard let identity else { throw LimitedLoginAuthenticationError.missingToken }
            return identity
        }

        /// Verifies this request's bearer token with the application's verifier and nonce policy
        /// (`app.limitedLogin.use(verifier:nonce:)`), logs the identity in and returns it; for routes
        /// without the authenticator. Throws ``LimitedLoginAuthenticationError``.
        public func verify() async throws -> LimitedLoginIdentity {
            if let identity { return identity }
            guard let token = try LimitedLoginAuthenticator.bearerToken(of: request) else { throw LimitedLoginAuthenticationError.missingToken }
            let identity = try await request.application.limitedLogin.authenticator().verify(token, for: request)
            request.auth.login(identity)
            return identity
        }

        /// Verifies a token that came some other way (a form field, a WebSocket message) with the application's
        /// verifier and this nonce check. Throws ``LimitedLoginAuthenticationError``.
        public func verify(_ token: String, nonce: NonceCheck) async throws -> LimitedLoginIdentity {
            guard let verifier = request.application.limitedLogin.verifier else { throw LimitedLoginAuthenticationError.notConfigured }
            do {
                return LimitedLoginIdentity(token: try await verifier.verify(token, nonce: nonce))
            } catch {
                throw LimitedLoginAuthenticationError.invalidToken(error)
            }
        }
    }
}
