import Foundation
import LimitedLoginJOSE
import NIOCore

/// The parts of an OpenID Connect discovery document a verifier needs.
public struct ProviderDiscovery: Sendable, Equatable {
    /// `issuer`.
    public let issuer: String
    /// `jwks_uri`.
    public let keySetURL: URL
    /// `authorization_endpoint`, if given.
    public let authorizationEndpoint: URL?

    /// Reads a discovery document.
    public init<Bytes: Collection>(document: Bytes) throws(FetchError) where Bytes.Element == UInt8 {
        let members: JSONObject
        do {
            guard let object = try StrictJSONParser(maximumSize: 256 * 1024).parse(document).objectValue else {
                throw FetchError.invalidDocument("the discovery document is not a JSON object")
            }
            members = object
        } catch let error as FetchError {
            throw error
        } catch {
            throw .invalidDocument("the discovery document is not acceptable JSON: \(error)")
        }
        guard let issuer = members["issuer"]?.stringValue, !issuer.isEmpty else {
            throw .invalidDocument("the discovery document has no \"issuer\" string")
        }
        guard let keySetText = members["jwks_uri"]?.stringValue, let keySetURL = URL(string: keySetText),
            keySetURL.host != nil
        else {
            throw .invalidDocument("the discovery document has no valid \"jwks_uri\"")
        }
        self.issuer = issuer
        self.keySetURL = keySetURL
        self.authorizationEndpoint = members["authorization_endpoint"]?.stringValue.flatMap(URL.init(string:))
    }

    /// Fetches and reads the discovery document at `url` (redirects refused).
    public static func fetch(_ url: URL, timeout: TimeInterval = 10) async throws(FetchError) -> ProviderDiscovery {
        let fetcher = DocumentFetcher(timeoutSeconds: timeout, maximumSize: 256 * 1024)
        return try ProviderDiscovery(document: try await fetcher.fetch(url).body)
    }
}
