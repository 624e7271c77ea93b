import Foundation
import LimitedLoginCore

/// What the provider says of the current authentication token (`GET /platform/oidc/status`), as the
/// iOS SDK asks when it starts.
public enum AuthenticationStatus: Sendable, Equatable {
    /// No authentication token to ask about.
    case noToken
    /// The person still has the app installed (`fb-s: connected`).
    case connected
    /// The person removed the app (`fb-s: not_authorized`): the session was cleared.
    case notAuthorized
    /// No verdict (the provider unreachable, or an answer without `fb-s`); nothing was changed.
    case unknown(String)
}

extension LoginSession {
    /// Asks the provider at `endpoints` whether the person behind ``authenticationToken`` still has the
    /// app, and clears the session when they removed it, as the iOS SDK's `AuthenticationStatusUtility`.
    public func checkAuthenticationStatus(endpoints: LoginEndpoints) async -> AuthenticationStatus {
        guard let token = authenticationToken else { return .noToken }
        var parameters = FormParameters()
        parameters.append("id_token", token.tokenString)
        let statusURL = endpoints.dialogBaseURL.appendingPathComponent("platform").appendingPathComponent("oidc")
            .appendingPathComponent("status")
        guard var components = URLComponents(url: statusURL, resolvingAgainstBaseURL: false) else { return .unknown("no status URL") }
        components.percentEncodedQuery = parameters.encoded
        guard let url = components.url else { return .unknown("no status URL") }
        let answer: SDKHTTPClient.Answer
        do { answer = try await SDKHTTPClient.send(url, timeout: .seconds(10)) } catch {
            return .unknown("the provider cannot be reached: \(error)")
        }
        guard answer.status == 200 else { return .unknown("the status endpoint answered HTTP \(answer.status)") }
        switch answer.headers.first(name: "fb-s") {
        case "not_authorized"?:
            // Only the token that was asked about is cleared: a login made meanwhile stands.
            do {
                try update { snapshot in
                    guard snapshot.authenticationToken == token else { return }
                    snapshot = SessionSnapshot()
                }
            } catch {
                return .unknown("the session could not be cleared: \(error.description)")
            }
            return .notAuthorized
        case "connected"?:
            return .connected
        default:
            return .unknown("the answer carries no fb-s status")
        }
    }
}
