import LimitedLoginCore
import LimitedLoginVerifier

/// Why a login failed. Each case says what happened in words a person can act on.
public enum LoginError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configuration was nil (a failable `LoginConfiguration` refused its input).
    case invalidConfiguration
    /// The callback's `state` is not the one this login sent: the response belongs to another login or
    /// was tampered with.
    case badChallengeString
    /// The dialog answered with an error (`error_message`), or showed an error page.
    case dialogFailed(code: String?, message: String)
    /// The ID token failed verification; nothing was set.
    case invalidIDToken(TokenVerificationError)
    /// The ID token's `at_hash` is not the hash of the access token it came with: the two were not
    /// issued together.
    case accessTokenHashMismatch
    /// The callback carries no token and cannot be read (a malformed or ambiguous response).
    case malformedCallback(String)
    /// The provider's discovery document or key set could not be fetched.
    case providerUnavailable(String)
    /// Exchanging the code for an access token failed.
    case codeExchangeFailed(String)
    /// The presenter could not show the dialog or receive its answer.
    case presentationFailed(String)
    /// Nothing answered at the dialog's address (`origin` is its scheme, host and port): the provider is
    /// not running there, or the network is down.
    case dialogUnreachable(origin: String, reason: String)
    /// No answer arrived in time.
    case timedOut(seconds: Double)
    /// The login succeeded but could not be saved; nothing was set.
    case notSaved(TokenStoreError)
    /// No app ID: neither the ``LoginManager`` nor ``Settings/appID`` has one.
    case missingAppID
    /// A current access token was required (to reauthorize data access) and there is none.
    case missingAccessToken

    public var description: String {
        switch self {
        case .invalidConfiguration:
            return "the login configuration is invalid (a permission name, a limited-login permission or the nonce was refused)"
        case .badChallengeString:
            return "the login response's state does not match the request's (badChallengeString): it was not answered by this login"
        case .dialogFailed(let code, let message):
            return "the login dialog failed\(code.map { " (\($0))" } ?? ""): \(message)"
        case .invalidIDToken(let error):
            return "the ID token was rejected (invalidIDToken): \(error.description)"
        case .accessTokenHashMismatch:
            return "the ID token's at_hash does not match the access token: they were not issued together"
        case .malformedCallback(let reason):
            return "the login response cannot be read: \(reason)"
        case .providerUnavailable(let reason):
            return "the provider's keys could not be fetched: \(reason)"
        case .codeExchangeFailed(let reason):
            return "the authorization code could not be exchanged for an access token: \(reason)"
        case .presentationFailed(let reason):
            return "the login dialog could not be shown: \(reason)"
        case .dialogUnreachable(let origin, let reason):
            return "the login dialog at \(origin) cannot be reached: \(reason)"
        case .timedOut(let seconds):
            return "no login response arrived within \(Int(seconds)) seconds"
        case .notSaved(let error):
            return "the login could not be saved: \(error.description)"
        case .missingAppID:
            let problem = Settings.shared.fileProblem.map { " (\($0))" } ?? ""
            return "no app ID: set Settings.shared.appID, FacebookAppID in the environment or the settings file, or pass one to LoginManager"
                + problem
        case .missingAccessToken:
            return "reauthorizing data access needs a current access token (a classic login); there is none (missingAccessToken)"
        }
    }
}
