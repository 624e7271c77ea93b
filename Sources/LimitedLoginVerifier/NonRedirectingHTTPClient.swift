import AsyncHTTPClient
import Foundation
import NIOSSL

/// The package's one HTTP client for outgoing requests (key sets, discovery, and the SDK's calls): like
/// `HTTPClient.shared`, but it never follows a redirect. A key set or an answer reached through a
/// redirect is one chosen by whoever controls the redirect, so a 3xx is read as an answer, not followed.
///
/// Over https it trusts the system's certificate authorities and, when `LIMITED_LOGIN_CA_FILE` names a
/// PEM file when the client is first used, the authorities in it too: what `limited-login serve --tls`
/// writes (`--ca-file`, or the file `serve --tls --exec` hands its command), so that a test process can
/// reach a provider serving HTTPS under its own local CA without trusting it machine-wide.
package enum NonRedirectingHTTPClient {
    package static let shared = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(tlsConfiguration: tlsConfiguration, redirectConfiguration: .disallow)
    )

    /// The variable naming extra certificate authorities to trust.
    package static let caFileVariable = "LIMITED_LOGIN_CA_FILE"

    private static var tlsConfiguration: TLSConfiguration? {
        guard let path = ProcessInfo.processInfo.environment[caFileVariable], !path.isEmpty else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.additionalTrustRoots = [.file(path)]
        return configuration
    }
}
