import Foundation
import LimitedLoginCore

/// The login button without a view, as the iOS SDK's `FBLoginButton`: what it shows, what a tap does
/// and what it tells its ``delegate``. An app draws it with its own toolkit and calls ``tap()``.
///
/// Logged out, a tap asks the delegate (``LoginButtonDelegate/loginButtonWillLogin(_:)``), then logs
/// in with ``makeLoginConfiguration()`` and calls
/// ``LoginButtonDelegate/loginButton(_:didCompleteWith:error:)``. Logged in (an access token or an
/// authentication token is current), a tap offers to log out, as the iOS SDK's action sheet does
/// (``logOutConfirmation``); ``confirmLogOut()`` logs out and calls
/// ``LoginButtonDelegate/loginButtonDidLogOut(_:)``.
@MainActor
public final class FBLoginButton {
    /// Told of logins and logouts.
    public weak var delegate: (any LoginButtonDelegate)?
    /// The permissions to ask for, by name.
    public var permissions: [String]
    /// Defaults to `.enabled`.
    public var loginTracking: LoginTracking = .enabled
    /// The Page a `user_messenger_contact` grant is for.
    public var messengerPageId: String?
    /// Defaults to `.rerequest`; nil sends none.
    public var authType: LoginAuthType? = .rerequest
    /// The PKCE verifier for a classic login.
    public var codeVerifier = CodeVerifier()
    /// The manager a tap logs in and out with.
    public let loginManager: LoginManager

    private var nonceValue: String?

    /// The nonce to log in with. A value that is not a valid nonce (empty, whitespace or control
    /// characters) is not kept: the button then logs in with a fresh UUID, as the FAQ says.
    public var nonce: String? {
        get { nonceValue }
        set { nonceValue = newValue.flatMap { Nonce.isValid($0) ? $0 : nil } }
    }

    /// What a tap while logged in offers, as the iOS SDK's action sheet: its title and its two buttons.
    public struct LogOutConfirmation: Sendable, Equatable {
        /// "Logged in as {name}", or "Logged in using Facebook" when the name is not known.
        public let title: String
        public let cancelTitle: String
        public let logOutTitle: String
    }

    /// The log-out offer a tap while logged in opened, until ``confirmLogOut()`` or ``cancelLogOut()``.
    public private(set) var logOutConfirmation: LogOutConfirmation?

    /// A button with ``LoginManager/init()``'s manager (``Settings/shared``).
    public convenience init() {
        self.init(permissions: [], loginManager: LoginManager())
    }

    public init(permissions: [String] = [], loginManager: LoginManager) {
        self.permissions = permissions
        self.loginManager = loginManager
    }

    /// True when an access token or an authentication token is current.
    public var isAuthenticated: Bool {
        let snapshot = loginManager.session.snapshot
        return snapshot.accessToken != nil || snapshot.authenticationToken != nil
    }

    /// The title the button shows: "Log out" when logged in, else "Continue with Facebook".
    public var title: String { isAuthenticated ? Self.logOutTitle : Self.longLogInTitle }

    /// The title for a narrow button when logged out.
    public static let shortLogInTitle = "Log in"
    public static let longLogInTitle = "Continue with Facebook"
    public static let logOutTitle = "Log out"

    /// The configuration a tap logs in with: ``nonce`` or a fresh UUID. Nil when a permission is refused
    /// (a bad name, or one a limited login cannot ask for); a tap then does nothing, as in the iOS SDK.
    public func makeLoginConfiguration() -> LoginConfiguration? {
        LoginConfiguration(
            permissions: permissions, tracking: loginTracking, nonce: nonceValue ?? UUID().uuidString,
            messengerPageId: messengerPageId, authType: authType, codeVerifier: codeVerifier
        )
    }

    /// Presses the button. The returned task ends once the delegate has been told (a login's outcome),
    /// at once otherwise.
    @discardableResult
    public func tap() -> Task<Void, Never> {
        if isAuthenticated {
            let name = loginManager.session.profile?.name
            logOutConfirmation = LogOutConfirmation(
                title: name.map { "Logged in as \($0)" } ?? "Logged in using Facebook", cancelTitle: "Cancel", logOutTitle: "Log Out"
            )
            return Task {}
        }
        if let delegate, !delegate.loginButtonWillLogin(self) { return Task {} }
        guard let configuration = makeLoginConfiguration() else { return Task {} }
        let manager = loginManager
        return Task { @MainActor in
            let outcome: Result<LoginManagerLoginResult, LoginError>
            do throws(LoginError) { outcome = .success(try await manager.logIn(configuration: configuration)) } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let result): delegate?.loginButton(self, didCompleteWith: result, error: nil)
            case .failure(let error): delegate?.loginButton(self, didCompleteWith: nil, error: error)
            }
        }
    }

    /// The "Log Out" button of ``logOutConfirmation``: logs out and tells the delegate.
    public func confirmLogOut() {
        guard logOutConfirmation != nil else { return }
        logOutConfirmation = nil
        loginManager.logOut()
        delegate?.loginButtonDidLogOut(self)
    }

    /// The "Cancel" button of ``logOutConfirmation``: nothing changes.
    public func cancelLogOut() {
        logOutConfirmation = nil
    }
}

/// The iOS SDK's Objective-C name for the button, `FBSDKLoginButton`; `LoginButton` for this project's
/// earlier name.
public typealias LoginButton = FBLoginButton
