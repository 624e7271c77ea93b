import LimitedLoginCore
import Synchronization

/// The provider's public addresses. The base URL may only be known once the server has bound its port
/// (port 0), so it is set then, before the first request.
public final class ProviderURLs: Sendable {
    private let base: Mutex<String>
    private let configuredIssuer: String?
    /// Where pictures are served when not at the base URL: `https://graph.facebook.com` when the provider
    /// stands in for the real service (`--tls` with the real issuer), a name a device reaches through its
    /// hosts file, where the base URL (127.0.0.1) would point at the device itself.
    private let pictureBase: String?
    /// The Graph / dialog version used in the URLs the provider prints.
    public static let apiVersion = "v21.0"

    init(baseURL: String, issuer: String?, pictureBase: String? = nil) {
        self.base = Mutex(Self.trimmed(baseURL))
        self.configuredIssuer = issuer
        self.pictureBase = pictureBase
    }

    func setBaseURL(_ url: String) {
        base.withLock { $0 = Self.trimmed(url) }
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// `http://127.0.0.1:8080`, no trailing slash.
    public var baseURL: String { base.withLock { $0 } }
    public var issuer: String { configuredIssuer ?? baseURL }
    public var discoveryURL: String { baseURL + "/.well-known/openid-configuration/" }
    public var jwksURL: String { baseURL + "/.well-known/oauth/openid/jwks/" }
    public var certificatesURL: String { baseURL + "/.well-known/oauth/openid/certs/" }
    public var authorizationEndpoint: String { baseURL + "/\(Self.apiVersion)/dialog/oauth" }
    public var isSecure: Bool { baseURL.hasPrefix("https://") }

    /// The picture URL put in ID tokens.
    func pictureURL(asid: String) -> String { (pictureBase ?? baseURL) + "/\(Self.apiVersion)/\(asid)/picture" }

    /// True when the base URL is a loopback address, so that its own paths are loopback redirect URIs.
    var isLoopback: Bool {
        let base = baseURL
        return ["http://127.0.0.1:", "http://[::1]:", "https://127.0.0.1:", "https://[::1]:"].contains { base.hasPrefix($0) }
    }

    /// A dialog URL for a limited login to an app, to open in a browser. On loopback it ends on the
    /// provider's own demo page (`form_post` to `/demo/callback`); otherwise at `fb{appID}://authorize/`.
    public func limitedDialogURL(appID: String, nonce: String = "demo-nonce") -> String {
        var parameters = FormParameters()
        parameters.append("client_id", appID)
        if isLoopback {
            parameters.append("redirect_uri", baseURL + DemoCallbackController.path)
            parameters.append("response_mode", "form_post")
        } else {
            parameters.append("redirect_uri", "fb\(appID)://authorize/")
        }
        parameters.append("response_type", "id_token,graph_domain,user_token_nonce")
        parameters.append("scope", "openid,public_profile,email,user_friends")
        parameters.append("nonce", nonce)
        parameters.append("tp", "ios_14_do_not_track")
        // The demo page reads the app back from the state, to offer "Try again" after a cancel.
        parameters.append("state", DemoCallbackController.statePrefix + appID)
        return authorizationEndpoint + "?" + parameters.encoded
    }
}
