import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport

@testable import LimitedLoginVerifier

/// A verifier over a static key set holding `key-1` (primary) and `key-2` (secondary), at a fixed time.
struct VerifierFixture {
    let factory = TokenFactory()
    let clock: ManualClock
    let verifier: TokenVerifier

    init(keySet: JSONWebKeySet = TestKeys.keySet([("key-1", TestKeys.primary), ("key-2", TestKeys.secondary)])) {
        clock = ManualClock(factory.now.addingTimeInterval(5))
        verifier = TokenVerifier(
            configuration: VerifierConfiguration(appID: factory.appID, allowedIssuers: [factory.issuer]),
            keys: StaticKeySet(keySet),
            clock: clock
        )
    }

    /// The error verifying `token` throws, or nil when it verifies.
    func failure(_ token: String, nonce: NonceCheck? = nil) async -> TokenVerificationError? {
        do {
            _ = try await verifier.verify(token, nonce: nonce ?? .exact(factory.nonce))
            return nil
        } catch {
            return error
        }
    }

    func headerSegment(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }
}
