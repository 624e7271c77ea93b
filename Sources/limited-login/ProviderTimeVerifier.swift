import Foundation
import LimitedLogin
import LimitedLoginVerifier

/// `login` against a provider whose clock was moved (`limited-login clock advance`): the ID token is checked
/// at the provider's time, as `verify --at provider` checks one, so that a login after a move (data access
/// expired, a token's lifetime run out) works as it would on that day; checked at the system's time, its
/// `iat` was "in the future" or long past.
///
/// The provider's offset is read with the admin token from the environment (`LIMITED_LOGIN_ADMIN_TOKEN`, as
/// `serve --exec` and the GitHub Action set it). Without one, when the provider does not say, or when its
/// clock was not moved, the SDK's own verifier checks at the system's time, as before.
enum ProviderTimeVerifier {
    static func make(appID: String, provider: String, endpoints: LoginEndpoints) async -> TokenVerifier? {
        guard let discoveryURL = endpoints.discoveryURL, let adminToken = ClientEnvironment.adminToken else { return nil }
        // Quietly: a token for another provider, or none that answers, leaves the SDK's check as it was.
        let base = provider.hasSuffix("/") ? String(provider.dropLast()) : provider
        guard let answer = try? await AdminRequest.call(base: base, token: adminToken, path: "/_admin/clock", method: .GET),
            let offset = answer.objectValue?["offset"]?.integerValue, offset != 0
        else { return nil }
        return try? await TokenVerifier.provider(discoveryURL: discoveryURL, appID: appID, clock: OffsetClock(offset: TimeInterval(offset)))
    }

    /// The system's time moved by the provider's offset, read at each check.
    struct OffsetClock: VerifierClock {
        let offset: TimeInterval
        var now: Date { Date().addingTimeInterval(offset) }
    }
}
