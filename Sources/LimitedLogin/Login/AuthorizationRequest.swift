import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// One login's dialog request (docs/BEHAVIOUR.md, section 2): the URL, and the state and nonce its answer must carry.
public struct AuthorizationRequest: Sendable {
    public let appID: String
    public let configuration: LoginConfiguration
    public let redirectURI: String
    /// The random challenge inside `state`; the answer must echo it.
    public let challenge: String
    /// The `state` parameter: `{"challenge":…}` as JSON, like the iOS SDK's.
    public let state: String
    public let url: URL

    /// `response_type` of a limited login: what the iOS SDK sends.
    public static let limitedResponseType = "id_token,graph_domain,user_token_nonce"
    /// `response_type` of a classic login: a code (exchanged with the PKCE verifier), an ID token, and the
    /// `signed_request` whose `user_id` the iOS SDK takes as the access token's user (checked here against
    /// the ID token's `sub`).
    public static let classicResponseType = "code,id_token,signed_request,graph_domain"

    /// The request for one login.
    ///
    /// - Parameters:
    ///   - appID: the app's ID (`client_id`).
    ///   - configuration: the permissions, tracking, nonce, `auth_type` and Messenger page to ask with.
    ///   - redirectURI: where the dialog sends its answer.
    ///   - endpoints: where the dialog is.
    ///   - extraParameters: sent after the others, such as `prompt=none` and `id_token_hint` for a
    ///     silent refresh.
    ///   - userTokenNonce: the `user_token_nonce` the last login answered, sent back as the iOS SDK does.
    public init(
        appID: String, configuration: LoginConfiguration, redirectURI: String, endpoints: LoginEndpoints,
        extraParameters: [(name: String, value: String)] = [], userTokenNonce: String? = nil
    ) {
        self.appID = appID
        self.configuration = configuration
        self.redirectURI = redirectURI
        var random = SystemRandomNumberGenerator()
        let challenge = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) })
        self.challenge = challenge
        self.state = String(decoding: JSONSerializer.serialize(.object(["challenge": .string(challenge), "3_method": "loopback"])), as: UTF8.self)

        let limited = configuration.tracking == .limited
        var scope = configuration.requestedPermissions.map(\.name)
        if !scope.contains("openid") { scope.append("openid") }
        var parameters = FormParameters()
        parameters.append("client_id", appID)
        parameters.append("redirect_uri", redirectURI)
        parameters.append("response_type", limited ? Self.limitedResponseType : Self.classicResponseType)
        parameters.append("scope", scope.sorted().joined(separator: ","))
        parameters.append("state", state)
        parameters.append("nonce", configuration.nonce)
        if let authType = configuration.authType { parameters.append("auth_type", authType.rawValue) }
        if let pageID = configuration.messengerPageId, !pageID.isEmpty { parameters.append("messenger_page_id", pageID) }
        if limited {
            parameters.append("tp", "ios_14_do_not_track")
        } else {
            parameters.append("code_challenge", configuration.codeVerifier.challenge)
            parameters.append("code_challenge_method", CodeVerifier.challengeMethod)
        }
        parameters.append("return_scopes", "true")
        parameters.append("sdk", "limited-login-swift")
        if let userTokenNonce, !userTokenNonce.isEmpty { parameters.append("user_token_nonce", userTokenNonce) }
        for (name, value) in extraParameters { parameters.append(name, value) }
        var components = URLComponents(url: endpoints.dialogURL, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = parameters.encoded
        self.url = components?.url ?? endpoints.dialogURL
    }
}
