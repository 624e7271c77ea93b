import Foundation
import LimitedLoginJOSE
import LimitedLoginVerifier

/// A token as the console's Tokens page shows it: to copy, its header and claims decoded, and what the
/// project's verifier says of it against this provider's keys and issuer (``ReturnedTokenChecker``) for
/// an app. Decoding shows any token's parts, also one the verifier refuses; the verdict says why.
struct ConsoleTokenView: Sendable {
    let heading: String
    let token: String
    let accessToken: String?
    let appID: String
    let header: String
    let claims: String
    let valid: Bool
    let verdict: String

    /// The largest token looked into (an ID token is a kilobyte or two).
    static let maximumLength = 16 * 1024

    static func make(
        heading: String, token: String, accessToken: String? = nil, appID: String?, services: ProviderServices
    ) async -> ConsoleTokenView {
        let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let header =
            parts.count == 3 ? decode(parts[0]) : (nil, "(not a compact JWS: it has \(parts.count) part\(parts.count == 1 ? "" : "s"), not 3)")
        let payload = parts.count == 3 ? decode(parts[1]) : (nil, "")
        let audience = payload.0?.objectValue?["aud"]?.stringValue
        let app = appID.flatMap { $0.isEmpty ? nil : $0 } ?? audience ?? ""
        var valid = false
        var verdict: String
        if app.isEmpty {
            verdict = "Not verified: give the app it is for (the token names none in aud)."
        } else {
            do {
                let verified = try await ReturnedTokenChecker(services: services).verify(token, appID: app)
                valid = true
                verdict = "Valid for app \(app): signed by this provider's key \(verified.keyID), issued by \(services.urls.issuer), not expired."
            } catch {
                verdict = "Refused for app \(app): \(error.description)"
            }
        }
        return ConsoleTokenView(
            heading: heading, token: token, accessToken: accessToken, appID: app, header: header.1, claims: payload.1,
            valid: valid, verdict: verdict
        )
    }

    /// A base64url part as pretty JSON, or why it is not.
    private static func decode(_ part: String) -> (JSONValue?, String) {
        guard let bytes = try? Base64URL.decode(part) else { return (nil, "(not base64url)") }
        guard let value = try? StrictJSONParser().parse(bytes) else {
            return (nil, "(not a JSON object: \(String(decoding: bytes.prefix(200), as: UTF8.self)))")
        }
        return (value, JSONSerializer.prettyPrinted(value))
    }

    func context(discoveryURL: String) -> [String: Any] {
        var context: [String: Any] = [
            "heading": heading, "token": token, "appID": appID.isEmpty ? "APP_ID" : appID, "header": header, "claims": claims,
            "valid": valid, "verdict": verdict, "discoveryURL": discoveryURL,
        ]
        if let accessToken { context["accessToken"] = accessToken }
        return context
    }
}
