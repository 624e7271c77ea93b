import Foundation
import LimitedLogin

/// What `LLFBInit` was given, checked: the app, where the provider is, and the session whose values
/// logins set and the current-value calls read.
struct NativeSetup: Sendable {
    let appID: String
    let endpoints: LoginEndpoints
    /// The state file given (nil: the SDK's shared session).
    let stateFile: String?
    /// Made for ``stateFile``; ``NativeLibrary/initialize(_:)`` keeps the one before when the file is the same.
    var session: LoginSession

    /// The longest app ID taken (real ones have 15 or 16 digits).
    static let maximumAppIDLength = 64

    /// Checks the arguments of `LLFBInit`: an app ID of ASCII letters and digits (it becomes part of
    /// the `fb{appID}://` redirect scheme), `"facebook"` or an http(s) base URL, and a state file path
    /// that is nil (the SDK's shared session) or not empty.
    init(appID: String, provider: String, stateFile: String?) throws(NativeError) {
        guard !appID.isEmpty, appID.utf8.count <= Self.maximumAppIDLength,
            appID.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else {
            throw NativeError(
                code: .invalidAppID,
                message: "the app ID must be 1 to \(Self.maximumAppIDLength) ASCII letters and digits, not \"\(appID)\""
            )
        }
        self.appID = appID
        self.endpoints = try Self.endpoints(provider)
        self.stateFile = stateFile
        if let stateFile {
            guard !stateFile.isEmpty else {
                throw NativeError(code: .invalidStateFile, message: "the state file path is empty (pass NULL for the default)")
            }
            self.session = LoginSession(store: FileTokenStore(path: stateFile))
        } else {
            self.session = .shared
        }
    }

    /// `"facebook"`, or the base URL of a provider: `http` or `https`, with a host, and no query or fragment.
    static func endpoints(_ provider: String) throws(NativeError) -> LoginEndpoints {
        if provider == "facebook" { return .facebook }
        guard let components = URLComponents(string: provider), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil, components.password == nil,
            let url = components.url
        else {
            throw NativeError(
                code: .invalidProvider,
                message: "the provider must be \"facebook\" or a provider's http(s) base URL such as http://127.0.0.1:8080, not \"\(provider)\""
            )
        }
        return .provider(url)
    }
}
