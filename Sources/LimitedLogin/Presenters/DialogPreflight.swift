import Foundation
import LimitedLoginVerifier

/// A look at the dialog before a person is sent there, so that a provider that is not running or an
/// app it does not know fails the login at once with the reason, instead of after the whole wait for an
/// answer that cannot come. The look is one `GET` without cookies: the page a new browser would get.
enum DialogPreflight {
    /// Throws ``LoginError/dialogUnreachable(origin:reason:)`` when nothing answers at `url`, and
    /// ``LoginError/dialogFailed(code:message:)`` with the page's message when the dialog answers with an
    /// error page (an unknown app, a redirect URI it refuses).
    static func check(_ url: URL) async throws(LoginError) {
        let answer: SDKHTTPClient.Answer
        do {
            answer = try await SDKHTTPClient.send(url, method: .GET, headers: [], body: nil)
        } catch {
            throw .dialogUnreachable(origin: origin(of: url), reason: TransportFailure.reason(error))
        }
        guard answer.status >= 400 else { return }
        throw .dialogFailed(code: String(answer.status), message: errorMessage(of: answer))
    }

    /// What an error page of the dialog says: its message, else its title, else the status.
    static func errorMessage(of answer: SDKHTTPClient.Answer) -> String {
        HTMLForm.text(ofElementWithID: "error-message", in: answer.text) ?? HTMLForm.title(in: answer.text) ?? "HTTP \(answer.status)"
    }

    /// `scheme://host[:port]` of `url`: where the provider is, without the long dialog query.
    static func origin(of url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        return components.string ?? url.absoluteString
    }
}
