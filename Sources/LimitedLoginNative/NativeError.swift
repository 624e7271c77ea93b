import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE

/// Why the C library refused a call or a login failed: a stable name for programs (`error_code`) and a
/// sentence for people (`error`), the pair every entry point returns instead of crashing.
struct NativeError: Error, Equatable, Sendable {
    /// The `error_code` names of `limited_login_native.h`.
    enum Code: String, Sendable, CaseIterable {
        case nullArgument = "null_argument"
        case invalidUTF8 = "invalid_utf8"
        case argumentTooLong = "argument_too_long"
        case unknownTracking = "unknown_tracking"
        case notInitialized = "not_initialized"
        case invalidAppID = "invalid_app_id"
        case invalidProvider = "invalid_provider"
        case invalidStateFile = "invalid_state_file"
        case invalidEmail = "invalid_email"
        case noCallback = "no_callback"
        case invalidNonce = "invalid_nonce"
        case invalidPermissionName = "invalid_permission_name"
        case permissionNotAllowedInLimitedLogin = "permission_not_allowed_in_limited_login"
        case notSaved = "not_saved"
        // A login's failures, one per case of the SDK's LoginError.
        case invalidConfiguration = "invalid_configuration"
        case badChallengeString = "bad_challenge_string"
        case dialogFailed = "dialog_failed"
        case invalidIDToken = "invalid_id_token"
        case accessTokenHashMismatch = "access_token_hash_mismatch"
        case malformedCallback = "malformed_callback"
        case providerUnavailable = "provider_unavailable"
        case codeExchangeFailed = "code_exchange_failed"
        case presentationFailed = "presentation_failed"
        case dialogUnreachable = "dialog_unreachable"
        case timedOut = "timed_out"
        case missingAppID = "missing_app_id"
        case missingAccessToken = "missing_access_token"
    }

    let code: Code
    let message: String

    /// The members an error adds to a result: `error` and `error_code`.
    var members: [String: JSONValue] {
        ["error": .string(message), "error_code": .string(code.rawValue)]
    }

    static let notInitialized = NativeError(code: .notInitialized, message: "LLFBInit has not succeeded yet: set up the app ID and provider first")
    static let noCallback = NativeError(
        code: .noCallback, message: "no result callback is registered (LLFBSetResultCallback): the login's result would be lost"
    )
}

extension NativeError {
    /// A configuration the SDK refuses, with the SDK's own words.
    init(_ error: LoginConfigurationError) {
        switch error {
        case .invalidNonce: self.init(code: .invalidNonce, message: error.description)
        case .invalidPermissionName: self.init(code: .invalidPermissionName, message: error.description)
        case .permissionNotAllowedInLimitedLogin: self.init(code: .permissionNotAllowedInLimitedLogin, message: error.description)
        }
    }

    /// A login that failed, named for its ``LoginError`` case, described in the SDK's words.
    init(_ error: LoginError) {
        let code: Code
        switch error {
        case .invalidConfiguration: code = .invalidConfiguration
        case .badChallengeString: code = .badChallengeString
        case .dialogFailed: code = .dialogFailed
        case .invalidIDToken: code = .invalidIDToken
        case .accessTokenHashMismatch: code = .accessTokenHashMismatch
        case .malformedCallback: code = .malformedCallback
        case .providerUnavailable: code = .providerUnavailable
        case .codeExchangeFailed: code = .codeExchangeFailed
        case .presentationFailed: code = .presentationFailed
        case .dialogUnreachable: code = .dialogUnreachable
        case .timedOut: code = .timedOut
        case .notSaved: code = .notSaved
        case .missingAppID: code = .missingAppID
        case .missingAccessToken: code = .missingAccessToken
        }
        self.init(code: code, message: error.description)
    }

    /// The signed-in state could not be written.
    init(_ error: TokenStoreError) {
        self.init(code: .notSaved, message: error.description)
    }
}
