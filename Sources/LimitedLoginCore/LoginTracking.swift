/// Whether a login may be used to track the person.
public enum LoginTracking: String, Sendable, Codable, CaseIterable {
    /// Classic login: an access token and the Graph API, with an ID token when `openid` is asked for.
    case enabled
    /// Limited Login: an OpenID Connect ID token only; no access token, no Graph API.
    case limited
}
