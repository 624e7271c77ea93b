import Foundation

/// The iOS SDK's login error codes (`LoginError.Code`, domain `com.facebook.sdk.login`), which
/// ``LoginError/code`` maps each failure to, so that code written against `FBSDKLoginKit`'s codes keeps
/// its meaning.
public enum LoginErrorCode: Int, Sendable, Equatable, CaseIterable {
    case reserved = 300
    /// A failure the iOS SDK has no code of its own for.
    case unknown
    case passwordChanged
    case userCheckpointed
    /// A login for another person than the current one.
    case userMismatch
    case unconfirmedUser
    case systemAccountAppDisabled
    case systemAccountUnavailable
    /// The answer does not carry this login's challenge (`state`).
    case badChallengeString
    /// The ID token was refused.
    case invalidIDToken
    /// A current access token was required and there is none.
    case missingAccessToken
}

extension LoginError: CustomNSError {
    /// `com.facebook.sdk.login`, the iOS SDK's `LoginErrorDomain`.
    public static var errorDomain: String { "com.facebook.sdk.login" }

    /// The iOS SDK's code for this failure.
    public var code: LoginErrorCode {
        switch self {
        case .badChallengeString: return .badChallengeString
        case .invalidIDToken, .accessTokenHashMismatch: return .invalidIDToken
        case .missingAccessToken: return .missingAccessToken
        case .invalidConfiguration, .dialogFailed, .malformedCallback, .providerUnavailable, .codeExchangeFailed,
            .presentationFailed, .dialogUnreachable, .timedOut, .notSaved, .missingAppID:
            return .unknown
        }
    }

    /// ``code``'s number (300–310).
    public var errorCode: Int { code.rawValue }

    /// The description, under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
