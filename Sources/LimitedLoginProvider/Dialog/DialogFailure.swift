/// An error the dialog answers with a page, because there is no redirect URI it may trust.
struct DialogPageError: Error, Equatable, Sendable {
    /// The HTTP status of the page.
    let status: Int
    let title: String
    let message: String

    static func badRequest(_ message: String) -> DialogPageError {
        DialogPageError(status: 400, title: "Invalid request", message: message)
    }
}

/// An error sent back to the app's redirect URI (docs/BEHAVIOUR.md, section 2): `error`, `error_code`,
/// `error_message` and the request's `state`.
struct DialogErrorResponse: Error, Equatable, Sendable {
    let error: String
    let code: Int
    let message: String

    static func invalidRequest(_ message: String) -> DialogErrorResponse {
        DialogErrorResponse(error: "invalid_request", code: 100, message: message)
    }

    static func invalidScope(_ message: String) -> DialogErrorResponse {
        DialogErrorResponse(error: "invalid_scope", code: 100, message: message)
    }

    static let loginRequired = DialogErrorResponse(
        error: "login_required", code: 1_349_088, message: "The person is not logged in, and prompt=none forbids asking them to."
    )

    static let consentRequired = DialogErrorResponse(
        error: "consent_required", code: 1_349_089,
        message: "The app needs permissions the person has not decided on, and prompt=none forbids asking them."
    )
}

/// Why a dialog request cannot go on.
enum DialogFailure: Error, Sendable {
    case page(DialogPageError)
    case redirect(DialogTarget, DialogErrorResponse)
}
