import Foundation
import LimitedLogin
import LimitedLoginCore

/// The arguments of `LLFBLoginWithTrackingPreference`, checked and made into the SDK's
/// ``LoginConfiguration``.
enum NativeLoginRequest {
    /// `scope`: comma-separated permissions; `tracking`: `"limited"` or `"enabled"` (what the Unity
    /// SDK's `FB.Mobile.LoginWithTrackingPreference` sends); `nonce`: nil or empty for a fresh UUID, as
    /// the Unity SDK does when it is given none.
    static func configuration(scope: String, tracking: String, nonce: String?) throws(NativeError) -> LoginConfiguration {
        guard let loginTracking = LoginTracking(rawValue: tracking) else {
            throw NativeError(code: .unknownTracking, message: "tracking must be \"limited\" or \"enabled\", not \"\(tracking)\"")
        }
        let permissions = Set(try CArgument.permissions(scope, "scope"))
        let nonce = nonce.flatMap { $0.isEmpty ? nil : $0 } ?? UUID().uuidString
        do throws(LoginConfigurationError) {
            try LoginConfiguration.validate(permissions: permissions, tracking: loginTracking, nonce: nonce)
        } catch {
            throw NativeError(error)
        }
        guard let configuration = LoginConfiguration(permissions: permissions, tracking: loginTracking, nonce: nonce) else {
            throw NativeError(code: .invalidConfiguration, message: LoginError.invalidConfiguration.description)
        }
        return configuration
    }
}
