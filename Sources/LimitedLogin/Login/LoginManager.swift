import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier
import NIOHTTP1

/// Logs a person in through the dialog and sets the session's current values, as the iOS SDK's
/// `LoginManager`.
///
/// A login builds the dialog URL (SPEC section 2), has the ``presenter`` show it, checks that the answer
/// carries this login's state, verifies the ID token (signature, issuer, audience, expiry, age, and the
/// configuration's nonce) and only then sets ``LoginSession``'s values. A limited login clears the
/// access token; a classic one exchanges its code with the PKCE verifier for an access token.
public final class LoginManager: Sendable {
    public let appID: String
    public let endpoints: LoginEndpoints
    public let presenter: any AuthorizationPresenter
    public let session: LoginSession
    private let verifiers: VerifierSource

    /// - Parameters:
    ///   - appID: the app's ID.
    ///   - endpoints: the real service by default, or `.provider(baseURL)` for a provider of this project.
    ///   - presenter: how the dialog is shown; the system browser and a loopback redirect by default.
    ///   - session: whose values a login sets; ``LoginSession/shared`` (`AccessToken.current` …) by default.
    ///   - verifier: the ID-token verifier; by default one for `endpoints` (the real service's keys, or
    ///     the provider's discovery document).
    public init(
        appID: String, endpoints: LoginEndpoints = .facebook, presenter: any AuthorizationPresenter = LoopbackPresenter(),
        session: LoginSession = .shared, verifier: TokenVerifier? = nil
    ) {
        self.appID = appID
        self.endpoints = endpoints
        self.presenter = presenter
        self.session = session
        self.verifiers = VerifierSource(appID: appID, endpoints: endpoints, fixed: verifier)
    }

    /// Logs in; a cancel is a result with `isCancelled`, every failure a ``LoginError``.
    public func logIn(configuration: LoginConfiguration?) async throws(LoginError) -> LoginManagerLoginResult {
        guard let configuration else { throw .invalidConfiguration }
        let attempt = try await presenter.begin(appID: appID)
        let request = AuthorizationRequest(appID: appID, configuration: configuration, redirectURI: attempt.redirectURI, endpoints: endpoints)
        let callbackURL = try await attempt.present(request.url)
        switch try LoginCallback(url: callbackURL, request: request) {
        case .cancelled:
            return .cancelled
        case .failed(let code, let message):
            throw .dialogFailed(code: code, message: message)
        case .success(let parameters):
            return try await complete(request, parameters)
        }
    }

    /// Logs in and calls `completion` with the outcome, as the iOS SDK's completion-handler form.
    public func logIn(configuration: LoginConfiguration?, completion: @escaping @Sendable (LoginResult) -> Void) {
        Task {
            let outcome: Result<LoginManagerLoginResult, LoginError>
            do throws(LoginError) { outcome = .success(try await logIn(configuration: configuration)) } catch { outcome = .failure(error) }
            switch outcome {
            case .success(let result) where result.isCancelled:
                completion(.cancelled)
            case .success(let result):
                completion(.success(granted: result.grantedPermissions, declined: result.declinedPermissions, token: result.token))
            case .failure(let error):
                completion(.failed(error))
            }
        }
    }

    /// Signs out: the access token, authentication token and profile become nil, in memory and on disk.
    public func logOut() throws(TokenStoreError) {
        try session.clear()
    }

    private func complete(_ request: AuthorizationRequest, _ parameters: LoginCallbackParameters) async throws(LoginError) -> LoginManagerLoginResult {
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
        if let answer = exchanged, let atHash = verified.claims.atHash,
           !constantTimeEquals(atHash, AccessTokenHash.of(answer.accessToken)) {
            throw .accessTokenHashMismatch
        }
        let authenticationToken = AuthenticationToken(
            tokenString: idToken, nonce: request.configuration.nonce, graphDomain: parameters.graphDomain
        )
        let profile = Profile(claims: verified.claims, isLimited: limited)
        let granted = parameters.grantedScopes
        let finalAccessToken = exchanged.map { answer in
            let now = Date()
            return AccessToken(
                tokenString: answer.accessToken, permissions: granted, declinedPermissions: parameters.deniedScopes,
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
            }
        } catch {
            throw .notSaved(error)
        }
        return LoginManagerLoginResult(
            token: finalAccessToken, authenticationToken: authenticationToken, isCancelled: false,
            grantedPermissions: granted, declinedPermissions: parameters.deniedScopes
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
              let expiresIn = object["expires_in"]?.numberValue, expiresIn.isFinite, expiresIn > 0 else {
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
private actor VerifierSource {
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
