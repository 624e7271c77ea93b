import Foundation
import LimitedLoginVerifier

/// Checks ID tokens that come back to the provider (uninstall, OIDC status, `id_token_hint`) with the
/// project's own strict verifier, against the provider's published keys and issuer.
struct ReturnedTokenChecker: Sendable {
    let services: ProviderServices

    /// The verified token, for `appID`. `acceptingExpired` is for `id_token_hint`, which OpenID
    /// Connect allows to be expired.
    func verify(_ token: String, appID: String, acceptingExpired: Bool = false) async throws(TokenVerificationError) -> VerifiedIDToken {
        let keySet: StaticKeySet
        do { keySet = StaticKeySet(try await ClusterSigning.keys(services).keySet) } catch {
            throw .keySetUnavailable("the provider cannot read its own keys")
        }
        var configuration = VerifierConfiguration(appID: appID, allowedIssuers: [services.urls.issuer])
        // The provider's own tokens end at their `exp`, whatever their age: a token minted to live ten years,
        // or issued with `--id-token-lifetime` over an hour, is good until then (a backend's verifier keeps
        // its maximum age; the provider knows what it issued).
        configuration.maximumTokenAge = Self.unlimitedAge
        if acceptingExpired { configuration.leeway = Self.unlimitedAge }
        let verifier = TokenVerifier(configuration: configuration, keys: keySet, clock: ProviderVerifierClock(clock: services.clock))
        return try await verifier.verify(token, nonce: .notChecked)
    }

    /// Longer than any time a token can carry (the year 9999 is the last a claim may name).
    static let unlimitedAge: TimeInterval = 10_000 * 366 * 24 * 3600
}

/// The provider's clock as the verifier reads time: a token the provider issued at a moved time comes back
/// verified on that same time.
struct ProviderVerifierClock: VerifierClock {
    let clock: ProviderClock

    var now: Date { Date(timeIntervalSince1970: TimeInterval(clock.now())) }
}
