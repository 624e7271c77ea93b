import Foundation
import HTTPTypes
import Hummingbird
import LimitedLoginJOSE
import ServiceLifecycle

/// What a faulted endpoint answers (``EndpointFault``), and which endpoint a request path is.
enum EndpointFaultAnswer {
    /// The faultable endpoint `path` names, nil for any other: discovery, the JWKS, the certificates (each
    /// with or without its trailing slash), and the Graph API (`/debug_token`, `/vX.Y/…` but the dialog and
    /// the code exchange).
    static func endpoint(of path: String) -> EndpointFault.Endpoint? {
        var path = Substring(path)
        if path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        switch path {
        case "/.well-known/openid-configuration": return .discovery
        case "/.well-known/oauth/openid/jwks": return .jwks
        case "/.well-known/oauth/openid/certs": return .certs
        case "/debug_token", "/me": return .graph
        default: break
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let first = segments.first, first.count > 1, first.first == "v", first.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }),
            segments.count > 1, segments[1] != "dialog", segments[1] != "oauth"
        else { return nil }
        return .graph
    }

    /// The answer `fault` gives in place of `endpoint`'s, after its delay; nil for a delay alone (the
    /// usual answer follows).
    static func response(_ fault: EndpointFault, endpoint: EndpointFault.Endpoint) async throws -> Response? {
        if fault.delay > 0 {
            // Cut short when the server stops: a delay of minutes held a stopping provider (`serve --exec` whose
            // command had exited) until it ran out. The request is then answered at once.
            let nanoseconds = UInt64(fault.delay * 1_000_000_000)
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(nanoseconds: nanoseconds) } } catch is CancellationError {}
        }
        switch fault.answer {
        case .usual:
            return nil
        case .status(let code):
            let status = HTTPResponse.Status(code: code)
            return Responses.json(
                .object([
                    "error": .object([
                        "message": .string("A fault answers this endpoint with \(code) (limited-login scenario fault).")
                    ])
                ]), status: status)
        case .empty:
            return Responses.jsonBytes(Array((endpoint == .jwks ? #"{"keys":[]}"# : "{}").utf8))
        case .html:
            return Responses.html(
                """
                <!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>\
                <body><h1>Bad Gateway</h1><p>A fault answers this endpoint with a page (limited-login scenario fault).</p></body></html>
                """)
        case .malformed:
            return Responses.jsonBytes(Array(#"{"keys":[{"kty":"RSA","use":"sig","alg":"RS256","n":"#.utf8))
        case .rotated:
            guard let documents = fault.rotatedDocuments else { return nil }
            return Responses.jsonBytes(endpoint == .certs ? documents.certificates : documents.keySet)
        }
    }
}

/// The key set and certificate map of a `rotated` fault: a single key that signs nothing, made once when
/// the fault is set (a key generation is a tenth of a second of CPU, too much for every answer).
struct RotatedKeyDocuments: Sendable, Equatable {
    let keySet: [UInt8]
    let certificates: [UInt8]

    static func make(commonName: String) async throws -> RotatedKeyDocuments {
        let key = try await SigningKeyring.generateKey()
        let keyID = SigningKeyring.makeKeyID()
        let keySet = JSONWebKeySet(keys: [RSAJSONWebKey(publicKey: key.publicKey, keyID: keyID)]).serialized()
        let certificate = try CertificateMap.selfSignedCertificatePEM(for: key, commonName: commonName, notBefore: Date())
        return RotatedKeyDocuments(keySet: keySet, certificates: CertificateMap.document([keyID: certificate]))
    }
}
