import Foundation
import LimitedLoginCore

/// Starts the SDK, as the iOS SDK's `ApplicationDelegate.shared` does from
/// `application(_:didFinishLaunchingWithOptions:)`.
///
/// Starting restores the saved session (`AccessToken.current`, `AuthenticationToken.current`,
/// `Profile.current`) and asks the provider whether a restored authentication token's person still has
/// the app (`GET /platform/oidc/status`); when they removed it, the session is cleared.
public final class ApplicationDelegate: Sendable {
    /// Starts ``Settings/shared`` and ``LoginSession/shared``.
    public static let shared = ApplicationDelegate(settings: .shared, session: .shared)

    public let settings: Settings
    public let session: LoginSession

    public init(settings: Settings, session: LoginSession) {
        self.settings = settings
        self.session = session
    }

    /// Restores the session now and checks its status in the background, as the iOS SDK's
    /// `initializeSDK()`. The returned task gives the status, for callers that want to wait.
    @discardableResult
    public func initializeSDK() -> Task<AuthenticationStatus, Never> {
        _ = session.snapshot
        let settings = settings
        let session = session
        return Task { await session.checkAuthenticationStatus(endpoints: settings.loginEndpoints) }
    }

    /// Restores the session and waits for the status check.
    public func initializeSDKAndCheckStatus() async -> AuthenticationStatus {
        await initializeSDK().value
    }
}
