import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// What the dialog answered, read from the callback URL (docs/BEHAVIOUR.md, section 7: how a callback is classified).
public enum LoginCallback: Sendable, Equatable {
    /// The callback carries a token or a code.
    case success(LoginCallbackParameters)
    /// No token and no `error_message`: the person cancelled.
    case cancelled
    /// An `error_message`: the dialog failed.
    case failed(code: String?, message: String)

    /// Reads `url` (parameters in its fragment, or its query when the fragment is empty) and checks the
    /// state against `request` before anything else, so that a response to another login is refused
    /// whatever it says.
    public init(url: URL, request: AuthorizationRequest) throws(LoginError) {
        let parameters = try Self.parameters(of: url)
        func single(_ name: String) throws(LoginError) -> String? {
            do { return try parameters.single(name) } catch { throw .malformedCallback(error.description) }
        }
        guard let state = try single("state"), Self.challenge(in: state).map({ constantTimeEquals($0, request.challenge) }) == true else {
            throw .badChallengeString
        }
        let idToken = try single("id_token")
        let accessToken = try single("access_token")
        let code = try single("code")
        if idToken != nil || accessToken != nil || code != nil {
            self = .success(
                LoginCallbackParameters(
                    idToken: idToken, accessToken: accessToken, code: code,
                    expiresIn: try single("expires_in").flatMap(TimeInterval.init),
                    dataAccessExpirationTime: try single("data_access_expiration_time").flatMap(TimeInterval.init),
                    grantedScopes: Self.permissions(try single("granted_scopes")),
                    deniedScopes: Self.permissions(try single("denied_scopes")),
                    graphDomain: try single("graph_domain") ?? "facebook", userTokenNonce: try single("user_token_nonce"),
                    signedRequest: try single("signed_request")
                ))
        } else if let message = try single("error_message") {
            let code = try single("error_code")
            self = .failed(code: code != nil ? code : try single("error"), message: message)
        } else {
            self = .cancelled
        }
    }

    static func parameters(of url: URL) throws(LoginError) -> FormParameters {
        let text = url.absoluteString
        let fragment = text.firstIndex(of: "#").map { text[text.index(after: $0)...] } ?? ""
        var query = Substring("")
        if let mark = text.firstIndex(of: "?") {
            let end = text.firstIndex(of: "#") ?? text.endIndex
            if mark < end { query = text[text.index(after: mark)..<end] }
        }
        do {
            return try FormParameters(encoded: fragment.isEmpty ? query : fragment)
        } catch {
            throw .malformedCallback(error.description)
        }
    }

    /// The `challenge` member of a JSON `state`, read with the strict reader.
    public static func challenge(in state: String) -> String? {
        guard case .object(let object)? = try? StrictJSONParser(maximumSize: 4096).parse(Array(state.utf8)) else { return nil }
        return object["challenge"]?.stringValue
    }

    static func permissions(_ list: String?) -> Set<Permission> {
        Set((list ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map { Permission(name: String($0)) })
    }
}

/// The parameters of a successful callback.
public struct LoginCallbackParameters: Sendable, Equatable {
    public var idToken: String?
    public var accessToken: String?
    public var code: String?
    public var expiresIn: TimeInterval?
    public var dataAccessExpirationTime: TimeInterval?
    public var grantedScopes: Set<Permission>
    public var deniedScopes: Set<Permission>
    public var graphDomain: String
    /// The `user_token_nonce` the dialog answered (when `response_type` asked for it): kept by the SDK and
    /// sent back with its next dialog request, as the iOS SDK does.
    public var userTokenNonce: String? = nil
    /// A classic login's `signed_request`: `signature.payload`, the payload's `user_id` the person's
    /// app-scoped ID. The app cannot check the signature (that needs the app secret); the iOS SDK reads
    /// `user_id` from it, and this SDK requires it to be the verified ID token's `sub`.
    public var signedRequest: String? = nil

    /// The `user_id` in ``signedRequest``'s payload, or nil when there is none or it cannot be read.
    public var signedRequestUserID: String? {
        guard let signedRequest, let dot = signedRequest.firstIndex(of: "."),
            let payload = try? Base64URL.decode(String(signedRequest[signedRequest.index(after: dot)...])),
            case .object(let object)? = try? StrictJSONParser(maximumSize: 4096).parse(payload)
        else { return nil }
        return object["user_id"]?.stringValue
    }
}
