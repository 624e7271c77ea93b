import Foundation
import LimitedLoginJOSE
import LimitedLoginVerifier

/// Checks ID tokens that come back to the provider (uninstall, OIDC status, `id_token_hint`) with the
/// project's own strict verifier, against the provider's published keys and issuer.
struct ReturnedTokenChecker: Sendable {
    let services: ProviderServices

    /// The verified token, for `appID`. `acceptingExpired` is for `id_token_hint`, which OpenID
    /// Connect allows to be expired.
    /// `includingDroppedKeys`: a token signed by a key since dropped is still checked with that key's kept
    /// public part (the OIDC status and `id_token_hint`, which only ask who the token names; never the
    /// uninstall, which acts on it).
    func verify(
        _ token: String, appID: String, acceptingExpired: Bool = false, includingDroppedKeys: Bool = false
    ) async throws(TokenVerificationError) -> VerifiedIDToken {
        let published: JSONWebKeySet
        do { published = try await ClusterSigning.keys(services).keySet } catch {
            throw .keySetUnavailable("the provider cannot read its own keys")
        }
        do {
            return try await verify(token, appID: appID, acceptingExpired: acceptingExpired, keys: StaticKeySet(published))
        } catch .unknownKey(let keyID) where includingDroppedKeys {
            let kept: JSONWebKeySet
            do {
                guard let jwk = try await services.store.keptPublicKey(keyID: keyID),
                    let members = try StrictJSONParser().parse(Array(jwk.utf8)).objectValue
                else { throw TokenVerificationError.unknownKey(keyID) }
                kept = JSONWebKeySet(keys: published.keys + [try RSAJSONWebKey(json: members)])
            } catch {
                throw .unknownKey(keyID)
            }
            return try await verify(token, appID: appID, acceptingExpired: acceptingExpired, keys: StaticKeySet(kept))
        }
    }

    private func verify(
        _ token: String, appID: String, acceptingExpired: Bool, keys keySet: StaticKeySet
    ) async throws(TokenVerificationError) -> VerifiedIDToken {
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
