import AsyncHTTPClient

/// The package's one HTTP client for outgoing requests (key sets, discovery, and the SDK's calls): like
/// `HTTPClient.shared`, but it never follows a redirect. A key set or an answer reached through a
/// redirect is one chosen by whoever controls the redirect, so a 3xx is read as an answer, not followed.
package enum NonRedirectingHTTPClient {
    package static let shared = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )
}
