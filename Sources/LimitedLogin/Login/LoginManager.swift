import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier
import Logging
import NIOHTTP1

/// Logs a person in through the dialog and sets the session's current values, as the iOS SDK's
/// `LoginManager`.
///
/// A login builds the dialog URL (docs/BEHAVIOUR.md, section 2), has the ``presenter`` show it, checks that the answer
/// carries this login's state, verifies the ID token (signature, issuer, audience, expiry, age, and the
/// configuration's nonce) and only then sets ``LoginSession``'s values. A limited login clears the
/// access token; a classic one exchanges its code with the PKCE verifier for an access token.
public final class LoginManager: Sendable {
    public let appID: String
    public let endpoints: LoginEndpoints
    public let presenter: any AuthorizationPresenter
    public let session: LoginSession
    /// The settings read at each login (``Settings/isAdvertiserTrackingEnabled``).
    public let settings: Settings
    let verifiers: VerifierSource
    static let logger = Logger(label: "limited-login.login-manager")

    /// A manager as an iOS app makes one, `LoginManager()`: the app ID, the endpoints and the presenter
    /// come from ``Settings/shared``, the values it sets are `AccessToken.current` and the others.
    public convenience init() {
        self.init(settings: .shared)
    }

    /// A manager whose app ID, endpoints and presenter come from `settings`.
    public convenience init(settings: Settings, session: LoginSession = .shared) {
        self.init(
            appID: settings.appID ?? "", endpoints: settings.loginEndpoints, presenter: settings.authorizationPresenter,
            session: session, settings: settings
        )
    }

    /// - Parameters:
    ///   - appID: the app's ID.
    ///   - endpoints: the real service by default, or `.provider(baseURL)` for a provider of this project.
    ///   - presenter: how the dialog is shown; the system browser and a loopback redirect by default.
    ///   - session: whose values a login sets; ``LoginSession/shared`` (`AccessToken.current` …) by default.
    ///   - verifier: the ID-token verifier; by default one for `endpoints` (the real service's keys, or
    ///     the provider's discovery document).
    ///   - settings: read at each login for ``Settings/isAdvertiserTrackingEnabled``.
    public init(
        appID: String, endpoints: LoginEndpoints = .facebook, presenter: any AuthorizationPresenter = LoopbackPresenter(),
        session: LoginSession = .shared, verifier: TokenVerifier? = nil, settings: Settings = .shared
    ) {
        self.appID = appID
        self.endpoints = endpoints
        self.presenter = presenter
        self.session = session
        self.settings = settings
        self.verifiers = VerifierSource(appID: appID, endpoints: endpoints, fixed: verifier)
    }

    /// Logs in; a cancel is a result with `isCancelled`, every failure a ``LoginError``.
    ///
    /// When ``Settings/isAdvertiserTrackingEnabled`` is false a classic configuration is performed as a
    /// limited one, as the iOS SDK does since v17: the permissions a limited login cannot ask for are
    /// left out and reported declined, and the result's ``LoginManagerLoginResult/tracking`` is `.limited`.
    public func logIn(configuration: LoginConfiguration?) async throws(LoginError) -> LoginManagerLoginResult {
        guard let requested = configuration else { throw .invalidConfiguration }
        guard !appID.isEmpty else { throw .missingAppID }
        let (configuration, leftOut) = requested.performed(advertiserTrackingEnabled: settings.isAdvertiserTrackingEnabled)
        let attempt = try await presenter.begin(appID: appID)
        let request = AuthorizationRequest(
            appID: appID, configuration: configuration, redirectURI: attempt.redirectURI, endpoints: endpoints,
            userTokenNonce: session.snapshot.userTokenNonce)
        let callbackURL = try await attempt.present(request.url)
        switch try LoginCallback(url: callbackURL, request: request) {
        case .cancelled:
            return .cancelled(tracking: configuration.tracking)
        case .failed(let code, let message):
            throw .dialogFailed(code: code, message: message)
        case .success(let parameters):
            return try await complete(request, parameters, leftOut: leftOut)
        }
    }

    /// Logs in and calls `completion` with the outcome, as the iOS SDK's
    /// `logIn(viewController:configuration:completion:)`. `viewController` is any presenting context an
    /// app has (a window, a view controller); the dialog is shown by ``presenter`` whatever it is.
    public func logIn(
        viewController: AnyObject? = nil, configuration: LoginConfiguration?,
        completion: @escaping @Sendable (LoginResult) -> Void
    ) {
        Task {
            let outcome: Result<LoginManagerLoginResult, LoginError>
            do throws(LoginError) { outcome = .success(try await logIn(configuration: configuration)) } catch { outcome = .failure(error) }
            completion(LoginResult(outcome))
        }
    }

    /// The iOS SDK's `logIn(permissions:from:handler:)`: a classic login for these permission names;
    /// `handler` gets the result (also for a cancel) or the error.
    public func logIn(
        permissions: [String], from viewController: AnyObject?,
        handler: (@Sendable (LoginManagerLoginResult?, (any Error)?) -> Void)?
    ) {
        let configuration = LoginConfiguration(permissions: permissions, tracking: .enabled)
        logIn(viewController: viewController, configuration: configuration) { result in
            handler?(result.loginManagerResult, result.error)
        }
    }

    /// Asks the person to confirm the app's access again once data access expired, as the iOS SDK's
    /// `reauthorizeDataAccess(from:handler:)`: a classic login with no new permissions and
    /// `auth_type=reauthorize`. Without a current access token the handler gets
    /// ``LoginError/missingAccessToken`` and nothing is shown.
    public func reauthorizeDataAccess(
        from viewController: AnyObject?, handler: @escaping @Sendable (LoginManagerLoginResult?, (any Error)?) -> Void
    ) {
        Task {
            do throws(LoginError) { handler(try await reauthorizeDataAccess(), nil) } catch { handler(nil, error) }
        }
    }

    /// ``reauthorizeDataAccess(from:handler:)`` as an async call.
    public func reauthorizeDataAccess() async throws(LoginError) -> LoginManagerLoginResult {
        guard session.accessToken != nil else { throw .missingAccessToken }
        return try await logIn(configuration: LoginConfiguration(permissions: Set<Permission>(), tracking: .enabled, authType: .reauthorize))
    }

    /// Signs out: the access token, authentication token and profile become nil, in memory and on disk.
    /// As in the iOS SDK it does not throw: when the saved file cannot be changed the failure is logged
    /// (``LoginSession/clear()`` throws it, for callers that must know).
    public func logOut() {
        do { try session.clear() } catch {
            Self.logger.error("the saved login could not be removed", metadata: ["reason": "\(error.description)"])
        }
    }

    private func complete(
        _ request: AuthorizationRequest, _ parameters: LoginCallbackParameters, leftOut: Set<Permission>
    ) async throws(LoginError) -> LoginManagerLoginResult {
        let limited = request.configuration.tracking == .limited
        var idToken = parameters.idToken
        var exchanged: ExchangedCode?
        if !limited {
            guard let code = parameters.code else {
                throw .malformedCallback("a classic login's answer carries no code")
            }
            let answer = try await exchange(code, request)
            idToken = answer.idToken ?? idToken
            exchanged = answer
        } else if parameters.accessToken != nil || parameters.code != nil {
            throw .malformedCallback("a limited login's answer carries an access token or a code")
        }
        guard let idToken else { throw .malformedCallback("the answer carries no id_token") }
        let verifier = try await verifiers.verifier()
        let verified: VerifiedIDToken
        do { verified = try await verifier.verify(idToken, nonce: .exact(request.configuration.nonce)) } catch {
            throw .invalidIDToken(error)
        }
        // The signed_request, when the answer has one, must name the person the ID token names (the iOS SDK
        // takes the access token's user ID from it).
        if !limited, parameters.signedRequest != nil {
            guard let userID = parameters.signedRequestUserID else { throw .malformedCallback("the signed_request cannot be read") }
            guard constantTimeEquals(userID, verified.claims.sub) else {
                throw .malformedCallback("the signed_request names another person than the ID token")
            }
        }
        if let answer = exchanged, let atHash = verified.claims.atHash,
            !constantTimeEquals(atHash, AccessTokenHash.of(answer.accessToken))
        {
            throw .accessTokenHashMismatch
        }
        let authenticationToken = AuthenticationToken(
            tokenString: idToken, nonce: request.configuration.nonce, graphDomain: parameters.graphDomain
        )
        let granted = parameters.grantedScopes
        let declined = parameters.deniedScopes.union(leftOut)
        let profile = Profile(claims: verified.claims, isLimited: limited, permissions: Set(granted.map(\.name)))
        let finalAccessToken = exchanged.map { answer in
            let now = Date()
            return AccessToken(
                tokenString: answer.accessToken, permissions: granted, declinedPermissions: declined,
                expiredPermissions: [], appID: appID, userID: verified.claims.sub,
                expirationDate: now.addingTimeInterval(answer.expiresIn), refreshDate: now,
                dataAccessExpirationDate: answer.dataAccessExpirationTime.map { Date(timeIntervalSince1970: $0) }
                    ?? now.addingTimeInterval(Self.defaultDataAccessLifetime),
                graphDomain: parameters.graphDomain
            )
        }
        do {
            try session.update { snapshot in
                snapshot.accessToken = finalAccessToken
                snapshot.authenticationToken = authenticationToken
                snapshot.profile = profile
                if let nonce = parameters.userTokenNonce { snapshot.userTokenNonce = nonce }
            }
        } catch {
            throw .notSaved(error)
        }
        return LoginManagerLoginResult(
            token: finalAccessToken, authenticationToken: authenticationToken, isCancelled: false,
            grantedPermissions: granted, declinedPermissions: declined, tracking: request.configuration.tracking
        )
    }

    /// Data access lasts 90 days when the provider does not say.
    static let defaultDataAccessLifetime: TimeInterval = 90 * 86_400

    private struct ExchangedCode {
        var accessToken: String
        var expiresIn: TimeInterval
        var dataAccessExpirationTime: TimeInterval?
        var idToken: String?
    }

    /// `oauth/access_token` with the code, the redirect URI and the PKCE verifier (no app secret: the
    /// app is a public client).
    private func exchange(_ code: String, _ request: AuthorizationRequest) async throws(LoginError) -> ExchangedCode {
        var form = FormParameters()
        form.append("client_id", appID)
        form.append("redirect_uri", request.redirectURI)
        form.append("code", code)
        form.append("code_verifier", request.configuration.codeVerifier.value)
        let answer: SDKHTTPClient.Answer
        do {
            answer = try await SDKHTTPClient.send(
                endpoints.graphURL("oauth/access_token"), method: .POST,
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form.encoded
            )
        } catch {
            throw .codeExchangeFailed("the provider cannot be reached: \(error)")
        }
        guard let object = answer.jsonObject else {
            throw .codeExchangeFailed("the provider answered HTTP \(answer.status) with something else than JSON")
        }
        if let error = answer.graphError { throw .codeExchangeFailed(error.message) }
        guard let token = object["access_token"]?.stringValue, !token.isEmpty,
            let expiresIn = object["expires_in"]?.numberValue, expiresIn.isFinite, expiresIn > 0
        else {
            throw .codeExchangeFailed("the answer has no access_token or expires_in")
        }
        let dataAccess = object["data_access_expiration_time"]?.numberValue.flatMap { $0.isFinite ? $0 : nil }
        return ExchangedCode(
            accessToken: token, expiresIn: expiresIn, dataAccessExpirationTime: dataAccess,
            idToken: object["id_token"]?.stringValue
        )
    }
}

/// The ID-token verifier of a ``LoginManager``: given, or made once from the endpoints (the real
/// service's preset, or the provider's discovery document) and kept, with its key cache, for later logins.
actor VerifierSource {
    let appID: String
    let endpoints: LoginEndpoints
    private var made: TokenVerifier?

    init(appID: String, endpoints: LoginEndpoints, fixed: TokenVerifier?) {
        self.appID = appID
        self.endpoints = endpoints
        self.made = fixed
    }

    func verifier() async throws(LoginError) -> TokenVerifier {
        if let made { return made }
        let verifier: TokenVerifier
        if let discoveryURL = endpoints.discoveryURL {
            do { verifier = try await TokenVerifier.provider(discoveryURL: discoveryURL, appID: appID) } catch {
                throw .providerUnavailable(error.description)
            }
        } else {
            verifier = TokenVerifier.facebook(appID: appID)
        }
        made = verifier
        return verifier
    }
}
