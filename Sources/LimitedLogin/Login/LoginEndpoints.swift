import Foundation

/// Where the SDK sends people and requests: the real service by default, or a provider of this project.
public struct LoginEndpoints: Sendable, Equatable {
    /// Where the login dialog is (`{dialogBaseURL}/{version}/dialog/oauth`).
    public var dialogBaseURL: URL
    /// Where the Graph API is (`{graphBaseURL}/{version}/me`, `…/oauth/access_token`).
    public var graphBaseURL: URL
    /// The provider's discovery document, for the issuer and key set that ID tokens are verified with;
    /// nil means the real service's fixed values (`LimitedLoginVerifier`'s `.facebook` preset).
    public var discoveryURL: URL?
    /// The Graph API version in paths.
    public var graphVersion: String

    public init(dialogBaseURL: URL, graphBaseURL: URL, discoveryURL: URL?, graphVersion: String = LoginEndpoints.defaultGraphVersion) {
        self.dialogBaseURL = dialogBaseURL
        self.graphBaseURL = graphBaseURL
        self.discoveryURL = discoveryURL
        self.graphVersion = graphVersion
    }

    public static let defaultGraphVersion = "v21.0"

    /// The real service: the dialog on `www.facebook.com`, the Graph API on `graph.facebook.com`, tokens
    /// checked against `limited.facebook.com`'s keys.
    public static let facebook = LoginEndpoints(
        dialogBaseURL: constantURL("https://www.facebook.com"), graphBaseURL: constantURL("https://graph.facebook.com"),
        discoveryURL: nil
    )

    private static func constantURL(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure("the constant URL \(text) is valid") }
        return url
    }

    /// A provider of this project (`limited-login serve`) at `baseURL`: dialog, Graph API and discovery
    /// all on that one origin.
    public static func provider(_ baseURL: URL) -> LoginEndpoints {
        let base = baseURL.absoluteString.hasSuffix("/") ? URL(string: String(baseURL.absoluteString.dropLast())) ?? baseURL : baseURL
        return LoginEndpoints(
            dialogBaseURL: base, graphBaseURL: base,
            discoveryURL: base.appendingPathComponent(".well-known").appendingPathComponent("openid-configuration")
        )
    }

    /// `{dialogBaseURL}/{version}/dialog/oauth`.
    public var dialogURL: URL {
        dialogBaseURL.appendingPathComponent(graphVersion).appendingPathComponent("dialog").appendingPathComponent("oauth")
    }

    /// `{graphBaseURL}/{version}/{path}`.
    public func graphURL(_ path: String) -> URL {
        var url = graphBaseURL.appendingPathComponent(graphVersion)
        for part in path.split(separator: "/") { url.appendPathComponent(String(part)) }
        return url
    }
}
