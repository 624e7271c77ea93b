import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

/// One verifier for a backend that serves several apps (an iOS app and a game): `aud` must be one of them,
/// and the verified token says which.
@Suite("Verifier: several app IDs")
struct SeveralAppsTests {
    let fixture = VerifierFixture()
    static let game = "2222222222"
    static let ios = "1234567890"

    /// A verifier for the iOS app and the game, over the fixture's keys and clock.
    func verifier(appIDs: [String] = [Self.game, Self.ios]) throws -> TokenVerifier {
        TokenVerifier(
            configuration: try VerifierConfiguration(appIDs: appIDs, allowedIssuers: [fixture.factory.issuer]),
            keys: StaticKeySet(TestKeys.keySet([("key-1", TestKeys.primary)])),
            clock: fixture.clock
        )
    }

    func token(for appID: String) -> String {
        var factory = fixture.factory
        factory.appID = appID
        return factory.token()
    }

    @Test("a token for either app verifies, and the result names the app it matched")
    func eachApp() async throws {
        let verifier = try verifier()
        for appID in [Self.ios, Self.game] {
            let verified = try await verifier.verify(token(for: appID), nonce: .exact(fixture.factory.nonce))
            #expect(verified.appID == appID)
            #expect(verified.claims.aud == appID)
        }
    }

    @Test("a token for an app outside the set: audienceNotAllowed, naming the token's app and the allowed ones")
    func otherApp() async throws {
        let verifier = try verifier()
        let error = TokenVerificationError.audienceNotAllowed(actual: "999", allowed: [Self.game, Self.ios])
        await #expect(throws: error) { try await verifier.verify(token(for: "999"), nonce: .exact(fixture.factory.nonce)) }
        #expect(error.code == "audience_not_allowed")
        #expect(error.description == #"the token is for app "999", not one of "2222222222", "1234567890""#)
    }

    @Test("near misses of an allowed app are refused: a prefix, a suffix, a space, a canonically equivalent spelling")
    func nearMisses() async throws {
        let verifier = try verifier(appIDs: ["K42", Self.ios])
        for aud in ["K4", "K421", "K42 ", " K42", "\u{212A}42", "123456789", "12345678901"] {
            await #expect(throws: TokenVerificationError.audienceNotAllowed(actual: aud, allowed: ["K42", Self.ios])) {
                try await verifier.verify(token(for: aud), nonce: .exact(fixture.factory.nonce))
            }
        }
    }

    @Test("an aud that is an array, even of allowed apps, is refused as the wrong type (docs/BEHAVIOUR.md, section 3: aud is a string)")
    func audienceArray() async throws {
        let verifier = try verifier()
        let arrays: [JSONValue] = [[.string(Self.ios)], [.string(Self.ios), .string(Self.game)], []]
        for value in arrays {
            await #expect(throws: TokenVerificationError.invalidClaimType("aud", expected: "string")) {
                try await verifier.verify(fixture.factory.token { $0["aud"] = value }, nonce: .exact(fixture.factory.nonce))
            }
        }
    }

    @Test("an empty set of app IDs, or an empty app ID, cannot be configured")
    func emptySet() throws {
        #expect(throws: VerifierConfigurationError.noAppIDs) {
            try VerifierConfiguration(appIDs: [String](), allowedIssuers: [fixture.factory.issuer])
        }
        #expect(throws: VerifierConfigurationError.emptyAppID) {
            try VerifierConfiguration(appIDs: [Self.ios, ""], allowedIssuers: [fixture.factory.issuer])
        }
        #expect(throws: VerifierConfigurationError.noAppIDs) { try TokenVerifier.facebook(appIDs: [String]()) }
        var configuration = VerifierConfiguration(appID: Self.ios, allowedIssuers: [fixture.factory.issuer])
        #expect(throws: VerifierConfigurationError.noAppIDs) { try configuration.replaceAppIDs(with: [String]()) }
        #expect(configuration.appIDs == [Self.ios], "a failed replacement changes nothing")
    }

    @Test("repeats are dropped in order; a single-app verifier keeps its appID and its audienceMismatch error")
    func singleAppCompatibility() async throws {
        let configuration = try VerifierConfiguration(appIDs: [Self.ios, Self.game, Self.ios], allowedIssuers: [])
        #expect(configuration.appIDs == [Self.ios, Self.game])
        #expect(configuration.appID == Self.ios)
        var single = VerifierConfiguration.facebook(appID: Self.ios)
        #expect(single.appIDs == [Self.ios])
        single.appID = Self.game
        #expect(single.appIDs == [Self.game])
        // The fixture's verifier is built with init(appID:allowedIssuers:).
        #expect(await fixture.failure(token(for: "999")) == .audienceMismatch(expected: Self.ios, actual: "999"))
        let verified = try await fixture.verifier.verify(token(for: Self.ios), nonce: .exact(fixture.factory.nonce))
        #expect(verified.appID == Self.ios)
    }

    @Test("from a provider's discovery document: its issuer, several apps; a key set off https is refused")
    func providerDiscovery() async throws {
        let document = #"{"issuer":"https://issuer.test","jwks_uri":"https://issuer.test/jwks"}"#
        let discovery = try ProviderDiscovery(document: Array(document.utf8))
        let verifier = try TokenVerifier.provider(discovery: discovery, appIDs: [Self.ios, Self.game])
        #expect(verifier.configuration.allowedIssuers == ["https://issuer.test"])
        #expect(verifier.configuration.appIDs == [Self.ios, Self.game])
        let insecure = try ProviderDiscovery(document: Array(#"{"issuer":"x","jwks_uri":"http://keys.test/jwks"}"#.utf8))
        #expect(throws: VerifierConfigurationError.insecureKeySetURL("http://keys.test/jwks")) {
            try TokenVerifier.provider(discovery: insecure, appIDs: [Self.ios])
        }
    }
}
