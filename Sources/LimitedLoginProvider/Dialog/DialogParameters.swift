import LimitedLoginCore

/// What the dialog is asked to return (`response_type`).
enum ResponseType: String, Sendable, CaseIterable {
    case idToken = "id_token"
    case token
    case code
    case signedRequest = "signed_request"
    case graphDomain = "graph_domain"
    case tokenOrNonce = "token_or_nonce"
    case userTokenNonce = "user_token_nonce"
    case nonce
}

/// How the response reaches the redirect URI (`response_mode`).
enum ResponseMode: String, Sendable {
    case fragment
    case query
    case formPost = "form_post"
}

/// `auth_type`.
enum DialogAuthType: String, Sendable {
    case rerequest
    case reauthorize
}

/// A dialog request whose app and redirect URI are known good; the rest of its parameters are still
/// raw until ``DialogRequest/validate()`` reads them.
struct DialogTarget: Sendable {
    let app: AppRecord
    let redirectURI: String
    let responseMode: ResponseMode
    let state: String?
}

/// A fully checked authorization request (docs/BEHAVIOUR.md, section 2).
struct DialogRequest: Sendable {
    let target: DialogTarget
    let responseTypes: Set<ResponseType>
    /// The requested permissions, in request order, without duplicates, `public_profile` first.
    let scope: [Permission]
    let nonce: String?
    let limited: Bool
    let authType: DialogAuthType?
    let codeChallenge: String?
    let promptNone: Bool
    let idTokenHint: String?
    /// The original query, carried through the sign-in and consent forms.
    let query: String

    var app: AppRecord { target.app }
    var wantsIDToken: Bool { limited || responseTypes.contains(.idToken) }
    var wantsAccessToken: Bool { !limited && (responseTypes.contains(.token) || responseTypes.contains(.tokenOrNonce)) }
    var wantsCode: Bool { !limited && responseTypes.contains(.code) }
}
