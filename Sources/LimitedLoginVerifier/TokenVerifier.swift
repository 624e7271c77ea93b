import Crypto
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// An ID token that passed every check.
public struct VerifiedIDToken: Sendable {
    /// The token, split and decoded (kept whole: taking its parts apart would cost a copy of each).
    let jws: CompactJWS
    /// The `kid` of the key that signed it.
    public let keyID: String
    /// The app it is for: the one of the verifier's ``VerifierConfiguration/appIDs`` that `aud` equals.
    public let appID: String
    /// The Limited Login claims.
    public let claims: AuthenticationTokenClaims

    init(jws: CompactJWS, keyID: String, appID: String, claims: AuthenticationTokenClaims) {
        self.jws = jws
        self.keyID = keyID
        self.appID = appID
        self.claims = claims
    }

    /// The token as received.
    public var tokenString: String { jws.token }
    /// The protected header, validated and indexed.
    public var headerDocument: JSONDocument { jws.headerDocument }
    /// The payload, validated and indexed.
    public var payloadDocument: JSONDocument { jws.payloadDocument }
    /// The protected header (built when read).
    public var header: JSONObject { jws.header }
    /// The whole payload, including claims this library does not model (built when read).
    public var payload: JSONObject { jws.payload }
}

/// Decides whether a Limited Login ID token is authentic (docs/BEHAVIOUR.md, section 8).
///
/// The algorithm is fixed to RS256 by this type, never taken from the token; keys come only from the
/// configured key set. Checks run in this order, and the first failure is reported: size and form, header,
/// key, signature, claims, nonce.
///
/// Keep one verifier (and so one key-set cache) for the life of the process.
///
/// ## Tokens seen before
///
/// A verifier remembers the tokens that passed every check the second time it sees them (most tokens are
/// seen once), by their exact bytes (at most
/// ``VerifierConfiguration/verifiedTokenCache``; ``VerifiedTokenCacheLimits/disabled`` turns this off). When
/// the same bytes come again, their form, header and signature are not checked again: those depend only on
/// the bytes and on the key. Everything else is checked on every call, in the same order and with the same
/// errors as for a new token: the key is looked up again and must be the very key that checked the
/// signature (a key that left the set, or was replaced under its `kid`, makes the verifier forget the token
/// and check it in full), then the issuer, the audience, `exp`, `iat` and the maximum age against the clock
/// at that call, and the nonce given to that call. A remembered token therefore never passes a check that it
/// would fail if checked in full. A token that fails is never remembered, and a token one byte different is
/// a different token.
public struct TokenVerifier: Sendable {
    public let configuration: VerifierConfiguration
    public let keys: any KeySetProvider
    public let clock: any VerifierClock

    private static let forbiddenHeaderParameters: [StaticString] = ["crit", "jku", "jwk", "x5u", "x5c"]
    /// The rules for a token's header and payload.
    package static let json = StrictJSONParser(maximumSize: 16 * 1024, maximumDepth: 16)
    /// Headers of tokens that verified, so the next token from the same key skips their decoding and checks.
    let headers = ValidatedHeaderCache()
    /// Tokens that verified, so the same token again skips its parsing and signature check (nil when off).
    let verifiedTokens: VerifiedTokenCache?
    /// The configuration's issuers and app IDs (in its order), as bytes for the claims to be compared with.
    private let issuers: ExactByteStrings
    private let audiences: ExactByteStrings

    public init(configuration: VerifierConfiguration, keys: any KeySetProvider, clock: any VerifierClock = SystemClock()) {
        self.configuration = configuration
        self.keys = keys
        self.clock = clock
        self.issuers = ExactByteStrings(configuration.allowedIssuers)
        self.audiences = ExactByteStrings(configuration.appIDs)
        let limits = configuration.verifiedTokenCache
        self.verifiedTokens = limits.isEnabled ? VerifiedTokenCache(limits: limits) : nil
    }

    /// Verifies a token; throws the precise reason when it is not acceptable.
    ///
    /// A token this verifier has verified before skips its parsing and signature check; every other check
    /// runs again (see "Tokens seen before" above).
    ///
    /// It runs where its caller runs (`nonisolated(nonsending)`): a check is a few microseconds of CPU, and
    /// running it there spares the executor switch around it; only a key set that must be fetched waits.
    nonisolated(nonsending) public func verify(_ token: String, nonce: NonceCheck) async throws(TokenVerificationError) -> VerifiedIDToken {
        var admit = false
        if let verifiedTokens {
            switch verifiedTokens.lookup(token) {
            case .hit(let remembered):
                if let verified = try await recheck(remembered, in: verifiedTokens, nonce: nonce) { return verified }
                admit = true
            case .miss(let seenBefore):
                admit = seenBefore
            }
        }
        let jws: CompactJWS
        // A header segment that already passed every check with this verifier is not decoded again.
        var rememberedKeyID: String?
        do {
            jws = try CompactJWS(parsing: token, maximumSize: configuration.maximumTokenSize, json: Self.json) { segment in
                guard let entry = headers.entry(for: segment) else { return nil }
                rememberedKeyID = entry.keyID
                return entry.document
            }
        } catch {
            throw TokenVerificationError(error)
        }
        let keyID: String
        if let rememberedKeyID { keyID = rememberedKeyID } else { keyID = try checkHeader(jws.headerDocument) }
        let key = try await resolveKey(keyID)
        guard jws.isSigned(by: key) else { throw .invalidSignature }
        let claims = try makeClaims(jws.payloadDocument)
        let appID = try checkClaims(claims, nonce: nonce)
        if rememberedKeyID == nil {
            headers.remember(.init(segment: jws.headerSegment, document: jws.headerDocument, keyID: keyID))
        }
        // The parsed token moves into the result: a copy would cost a reference count on each of its six parts,
        // and another on each when the copy left behind was dropped.
        let verified = VerifiedIDToken(jws: consume jws, keyID: keyID, appID: appID, claims: claims)
        if admit { verifiedTokens?.remember(verified, keyFingerprint: key.fingerprint) }
        return verified
    }

    /// The checks a remembered token still needs, from the key on, as ``verify(_:nonce:)`` runs them; nil
    /// when the key that checked its signature is no longer the set's key for its `kid` (then the token is
    /// forgotten and checked in full).
    nonisolated(nonsending) private func recheck(
        _ remembered: VerifiedTokenCache.Entry, in cache: VerifiedTokenCache, nonce: NonceCheck
    ) async throws(TokenVerificationError) -> VerifiedIDToken? {
        let token = remembered.token
        let key: RS256PublicKey
        do {
            key = try await resolveKey(token.keyID)
        } catch {
            cache.forget(remembered)
            throw error
        }
        guard key.fingerprint == remembered.keyFingerprint else {
            cache.forget(remembered)
            return nil
        }
        let appID: String
        do {
            appID = try checkClaims(token.claims, nonce: nonce)
        } catch {
            // Expiry never comes undone; a wrong nonce or an app no longer configured is this call's failure.
            if case .expired = error { cache.forget(remembered) }
            throw error
        }
        return VerifiedIDToken(jws: token.jws, keyID: token.keyID, appID: appID, claims: token.claims)
    }

    /// The key for `keyID` from the key set, or the key set's reason there is none.
    ///
    /// Where its caller runs, as ``verify(_:nonce:)``: a plain `async` function would switch to the global
    /// executor and back on every call, warm cache or not.
    nonisolated(nonsending) private func resolveKey(_ keyID: String) async throws(TokenVerificationError) -> RS256PublicKey {
        do {
            // A warm cache answers at once; only a miss waits (for a fetch, or for one already running).
            if let immediate = try keys.immediateKey(for: keyID) { return immediate }
            return try await keys.key(for: keyID)
        } catch {
            switch error {
            case .unknownKey(let id): throw .unknownKey(id)
            case .unusableKey(let id, let reason): throw .unusableKey(keyID: id, reason)
            case .ambiguousKey(let id): throw .ambiguousKey(id)
            case .keySetUnavailable(let reason): throw .keySetUnavailable(reason)
            }
        }
    }

    /// Checks the header and returns the `kid`.
    private func checkHeader(_ header: JSONDocument) throws(TokenVerificationError) -> String {
        let root = header.root
        guard let algorithm = header.member("alg", of: root) else { throw .missingAlgorithm }
        // Byte-exact, as every comparison of names and identifiers here; a String is built only to report one.
        guard header.stringEquals(algorithm, "RS256" as StaticString) else {
            guard let algorithmName = header.string(at: algorithm) else {
                throw .algorithmNotAllowed("\(header.typeName(at: algorithm)) value")
            }
            throw .algorithmNotAllowed(algorithmName)
        }
        for name in Self.forbiddenHeaderParameters where header.member(name, of: root) != nil {
            throw .forbiddenHeaderParameter(name.description)
        }
        if let type = header.member("typ", of: root), !header.stringEquals(type, "JWT" as StaticString) {
            guard let typeName = header.string(at: type) else { throw .unsupportedType("\(header.typeName(at: type)) value") }
            throw .unsupportedType(typeName)
        }
        guard let keyIDMember = header.member("kid", of: root) else { throw .missingKeyID }
        guard let keyID = header.string(at: keyIDMember) else {
            throw .invalidKeyID("it is a \(header.typeName(at: keyIDMember)), not a string")
        }
        guard !keyID.isEmpty else { throw .invalidKeyID("it is empty") }
        // Characters as JSON counts them: Unicode code points (one grapheme cluster can hold any number of
        // them, so counting those would let a kid of kilobytes through). Never more of them than UTF-8 bytes.
        if keyID.utf8.count > configuration.maximumKeyIDLength {
            let length = keyID.unicodeScalars.count
            guard length <= configuration.maximumKeyIDLength else {
                throw .invalidKeyID("\(length) characters, the limit is \(configuration.maximumKeyIDLength)")
            }
        }
        return keyID
    }

    /// The claims of a validated payload: present, of their types, not empty (depends only on the bytes).
    private func makeClaims(_ payload: JSONDocument) throws(TokenVerificationError) -> AuthenticationTokenClaims {
        do {
            return try AuthenticationTokenClaims(document: payload)
        } catch {
            switch error {
            case .missing(let name): throw .missingClaim(name)
            case .wrongType(let name, let expected): throw .invalidClaimType(name, expected: expected)
            case .empty(let name): throw .emptyClaim(name)
            }
        }
    }

    /// Checks the claims against the configuration, the clock and the nonce (on every call, remembered token
    /// or not); returns the app ID `aud` matched.
    private func checkClaims(
        _ claims: AuthenticationTokenClaims, nonce: NonceCheck
    ) throws(TokenVerificationError) -> String {
        // Byte-exact, where the values lie in the payload: Swift's == would let a canonically equivalent
        // spelling through.
        guard claims.withIssuerBytes({ issuers.firstIndex(of: $0) }) != nil else { throw .issuerNotAllowed(claims.iss) }
        let appIDs = configuration.appIDs
        // Byte for byte against each (a handful at most), the first that matches: a Set lookup would use Swift's ==.
        guard let appIndex = claims.withAudienceBytes({ audiences.firstIndex(of: $0) }) else {
            if appIDs.count == 1 { throw .audienceMismatch(expected: appIDs[0], actual: claims.aud) }
            throw .audienceNotAllowed(actual: claims.aud, allowed: appIDs)
        }
        let appID = appIDs[appIndex]
        let now = clock.now
        let leeway = configuration.leeway
        guard now.timeIntervalSince(claims.exp) <= leeway else { throw .expired(expiredAt: claims.exp, now: now) }
        guard claims.iat.timeIntervalSince(now) <= leeway else { throw .issuedInFuture(issuedAt: claims.iat, now: now) }
        guard now.timeIntervalSince(claims.iat) <= configuration.maximumTokenAge + leeway else {
            throw .issuedTooLongAgo(issuedAt: claims.iat, maximumAge: configuration.maximumTokenAge)
        }
        // Independent of the leeway: a token that expires when or before it is issued was never valid, though
        // with the leeway both times pass the checks above (exp just behind now, iat just ahead). After them, so
        // a token that is expired, or from the future, is reported as such.
        guard claims.exp > claims.iat else { throw .expiresNotAfterIssued(expiresAt: claims.exp, issuedAt: claims.iat) }
        if let expected = nonce.expectedValue, !claims.nonce(matches: expected) { throw .nonceMismatch }
        return appID
    }
}

extension TokenVerifier {
    /// A verifier for tokens from the real service (`limited.facebook.com`), for this app.
    public static func facebook(
        appID: String,
        policy: RemoteKeySet.Policy = .init(),
        clock: any VerifierClock = SystemClock()
    ) -> TokenVerifier {
        TokenVerifier(
            configuration: .facebook(appID: appID),
            keys: RemoteKeySet(url: VerifierConfiguration.facebookKeySetURL, policy: policy, clock: clock),
            clock: clock
        )
    }

    /// A verifier for tokens from the real service for any of these apps; throws when `appIDs` is empty
    /// or holds an empty string.
    public static func facebook(
        appIDs: some Sequence<String>,
        policy: RemoteKeySet.Policy = .init(),
        clock: any VerifierClock = SystemClock()
    ) throws(VerifierConfigurationError) -> TokenVerifier {
        TokenVerifier(
            configuration: try .facebook(appIDs: appIDs),
            keys: RemoteKeySet(url: VerifierConfiguration.facebookKeySetURL, policy: policy, clock: clock),
            clock: clock
        )
    }

    /// A verifier for tokens from any OpenID provider (a Limited Login provider of this project, say):
    /// the issuer and key set come from its discovery document.
    public static func provider(
        discoveryURL: URL,
        appID: String,
        policy: RemoteKeySet.Policy = .init(),
        clock: any VerifierClock = SystemClock()
    ) async throws(FetchError) -> TokenVerifier {
        let discovery = try await ProviderDiscovery.fetch(discoveryURL, timeout: policy.requestTimeout)
        guard DocumentFetcher.isAcceptable(discovery.keySetURL) else {
            throw .insecureURL(discovery.keySetURL.absoluteString)
        }
        return TokenVerifier(
            configuration: VerifierConfiguration(appID: appID, allowedIssuers: [discovery.issuer]),
            keys: RemoteKeySet(url: discovery.keySetURL, policy: policy, clock: clock),
            clock: clock
        )
    }

    /// A verifier for tokens from an OpenID provider, whose discovery document the caller has read
    /// (``ProviderDiscovery/fetch(_:timeout:)``), for any of these apps.
    ///
    /// Throws when `appIDs` is empty or holds an empty string, or the key set is not on https (or loopback).
    public static func provider(
        discovery: ProviderDiscovery,
        appIDs: some Sequence<String>,
        policy: RemoteKeySet.Policy = .init(),
        clock: any VerifierClock = SystemClock()
    ) throws(VerifierConfigurationError) -> TokenVerifier {
        guard DocumentFetcher.isAcceptable(discovery.keySetURL) else {
            throw .insecureKeySetURL(discovery.keySetURL.absoluteString)
        }
        return TokenVerifier(
            configuration: try VerifierConfiguration(appIDs: appIDs, allowedIssuers: [discovery.issuer]),
            keys: RemoteKeySet(url: discovery.keySetURL, policy: policy, clock: clock),
            clock: clock
        )
    }
}
