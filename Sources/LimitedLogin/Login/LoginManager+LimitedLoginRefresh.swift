import Foundation
import LimitedLoginCore
import LimitedLoginVerifier

extension LoginManager {
    /// Renews a limited login's `AuthenticationToken.current` and `Profile.current`, as the iOS SDK's
    /// `refreshLimitedLogin(from:fallbackPolicy:completion:)`.
    ///
    /// The silent path asks the dialog with `prompt=none` and the current token as `id_token_hint`: the
    /// provider answers at once, with a new ID token when the person is still signed in and the grant
    /// covers `Profile.permissions`, else with `login_required` or `consent_required`. `.automatic`
    /// then falls back to an explicit limited login; `.silentOnly` reports the error. The new token must be
    /// for the same person (`sub` = `Profile.current.userID`), or nothing changes (`userMismatch`).
    public func refreshLimitedLogin(
        from viewController: AnyObject? = nil, fallbackPolicy: RefreshFallbackPolicy = .automatic,
        completion: @escaping @Sendable (Result<LimitedLoginRefreshResult, LimitedLoginRefreshError>) -> Void
    ) {
        Task {
            do throws(LimitedLoginRefreshError) {
                completion(.success(try await refreshLimitedLogin(fallbackPolicy: fallbackPolicy)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// ``refreshLimitedLogin(from:fallbackPolicy:completion:)`` as an async call.
    public func refreshLimitedLogin(
        fallbackPolicy: RefreshFallbackPolicy = .automatic
    ) async throws(LimitedLoginRefreshError) -> LimitedLoginRefreshResult {
        guard let token = session.authenticationToken else { throw .noCurrentToken }
        guard let profile = session.profile, profile.isLimited else { throw .notLimitedLogin }
        let permissions = Set((profile.permissions ?? []).map(Permission.init(name:))).filter(\.isAllowedInLimitedLogin)
        switch fallbackPolicy {
        case .directOnly:
            throw .notDPoPBound
        case .silentOnly:
            return try await silentRefresh(token, profile: profile, permissions: permissions)
        case .explicitOnly:
            return try await explicitRefresh(profile: profile, permissions: permissions)
        case .automatic:
            do throws(LimitedLoginRefreshError) {
                return try await silentRefresh(token, profile: profile, permissions: permissions)
            } catch {
                guard error == .loginRequired || error == .consentRequired else { throw error }
                return try await explicitRefresh(profile: profile, permissions: permissions)
            }
        }
    }

    private func silentRefresh(
        _ token: AuthenticationToken, profile: Profile, permissions: Set<Permission>
    ) async throws(LimitedLoginRefreshError) -> LimitedLoginRefreshResult {
        guard !appID.isEmpty, let configuration = LoginConfiguration(permissions: permissions, tracking: .limited, authType: nil) else {
            throw .unknown
        }
        let callbackURL: URL
        let request: AuthorizationRequest
        do {
            let attempt = try await presenter.begin(appID: appID)
            request = AuthorizationRequest(
                appID: appID, configuration: configuration, redirectURI: attempt.redirectURI, endpoints: endpoints,
                extraParameters: [("prompt", "none"), ("id_token_hint", token.tokenString)], userTokenNonce: session.snapshot.userTokenNonce
            )
            callbackURL = try await attempt.present(request.url)
        } catch {
            throw Self.refreshError(error)
        }
        let answer: LoginCallback
        do { answer = try LoginCallback(url: callbackURL, request: request) } catch { throw .invalidResponse }
        guard case .success(let parameters) = answer, let idToken = parameters.idToken else {
            let oidcError = (try? LoginCallback.parameters(of: callbackURL)).flatMap { try? $0.single("error") }
            switch oidcError {
            case "login_required"?: throw .loginRequired
            case "consent_required"?: throw .consentRequired
            default: throw .unknown
            }
        }
        let verified: VerifiedIDToken
        do {
            verified = try await verifiers.verifier().verify(idToken, nonce: .exact(configuration.nonce))
        } catch let error as LoginError {
            throw Self.refreshError(error)
        } catch {
            throw .invalidResponse
        }
        guard verified.claims.sub == profile.userID else { throw .userMismatch }
        let renewedToken = AuthenticationToken(tokenString: idToken, nonce: configuration.nonce, graphDomain: parameters.graphDomain)
        let granted = parameters.grantedScopes.isEmpty ? profile.permissions : Set(parameters.grantedScopes.map(\.name))
        let renewedProfile = Profile(claims: verified.claims, isLimited: true, permissions: granted)
        do {
            try session.update { snapshot in
                snapshot.authenticationToken = renewedToken
                snapshot.profile = renewedProfile
                snapshot.accessToken = nil
            }
        } catch {
            throw .unknown
        }
        return LimitedLoginRefreshResult(profile: renewedProfile, authenticationToken: renewedToken, path: .silent)
    }

    private func explicitRefresh(
        profile: Profile, permissions: Set<Permission>
    ) async throws(LimitedLoginRefreshError) -> LimitedLoginRefreshResult {
        let before = session.snapshot
        let result: LoginManagerLoginResult
        do {
            result = try await logIn(configuration: LoginConfiguration(permissions: permissions, tracking: .limited))
        } catch {
            throw Self.refreshError(error)
        }
        if result.isCancelled { throw .cancelled }
        guard let token = session.authenticationToken, let renewed = session.profile else { throw .unknown }
        // The dialog lets the person sign in as anyone. Another person's login is not a renewal of this one:
        // the session goes back to what it was, as `userMismatch` promises ("nothing was changed").
        guard renewed.userID == profile.userID else {
            do { try session.update { $0 = before } } catch { throw .unknown }
            throw .userMismatch
        }
        return LimitedLoginRefreshResult(profile: renewed, authenticationToken: token, path: .explicit)
    }

    private static func refreshError(_ error: LoginError) -> LimitedLoginRefreshError {
        switch error {
        case .dialogUnreachable, .providerUnavailable, .presentationFailed: return .networkError
        case .timedOut: return .timeout
        case .invalidIDToken, .malformedCallback, .badChallengeString, .accessTokenHashMismatch: return .invalidResponse
        default: return .unknown
        }
    }
}
