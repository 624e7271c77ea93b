import LimitedLoginVerifier
import Vapor

extension Application {
    /// The application's Limited Login setup: one verifier and one nonce policy, for
    /// ``LimitedLoginAuthenticator`` and `req.limitedLogin.verify()`.
    public var limitedLogin: LimitedLogin { LimitedLogin(application: self) }

    /// `app.limitedLogin`: where the verifier and the nonce policy are kept.
    public struct LimitedLogin: Sendable {
        let application: Application

        struct Key: StorageKey {
            typealias Value = Configured
        }

        /// What ``use(verifier:nonce:)`` stored.
        struct Configured: Sendable {
            var verifier: TokenVerifier
            var nonce: LimitedLoginNoncePolicy
        }

        /// Sets the verifier (one for the application: it owns the key-set cache) and the nonce policy
        /// (required: write `.notChecked` out to skip the nonce).
        public func use(verifier: TokenVerifier, nonce: LimitedLoginNoncePolicy) {
            application.storage[Key.self] = Configured(verifier: verifier, nonce: nonce)
        }

        /// The verifier set by ``use(verifier:nonce:)``, if any.
        public var verifier: TokenVerifier? { application.storage[Key.self]?.verifier }

        /// An authenticator over the configured verifier and nonce policy; throws
        /// ``LimitedLoginAuthenticationError/notConfigured`` before ``use(verifier:nonce:)``.
        public func authenticator() throws -> LimitedLoginAuthenticator {
            guard let configured = application.storage[Key.self] else { throw LimitedLoginAuthenticationError.notConfigured }
            return LimitedLoginAuthenticator(verifier: configured.verifier, nonce: configured.nonce)
        }
    }
}
