import LimitedLoginCore
import LimitedLoginJOSE

/// Reads and checks the dialog's query (docs/BEHAVIOUR.md, section 2), in two steps: first the app and redirect URI
/// (failures are error pages: nothing is sent to an untrusted URI), then everything else (failures go
/// back to the app's redirect URI).
struct DialogRequestParser: Sendable {
    let store: ProviderStore
    static let maximumQueryLength = 8 * 1024
    static let maximumStateLength = 4 * 1024

    func parse(query: String) async throws(DialogFailure) -> DialogRequest {
        guard query.utf8.count <= Self.maximumQueryLength else {
            throw .page(.badRequest("The request is longer than \(Self.maximumQueryLength) bytes."))
        }
        guard query.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .page(.badRequest("The request must be percent-encoded ASCII; it contains a raw space, control or non-ASCII byte."))
        }
        let parameters: FormParameters
        do { parameters = try FormParameters(encoded: query) } catch {
            throw .page(.badRequest("The request cannot be read: \(error.description)."))
        }
        let target = try await target(parameters)
        do {
            return try request(parameters, target: target, query: query)
        } catch {
            throw .redirect(target, error)
        }
    }

    private func single(_ parameters: FormParameters, _ name: String) throws(DialogFailure) -> String? {
        do { return try parameters.single(name) } catch {
            throw .page(.badRequest("The request is ambiguous: \(error.description)."))
        }
    }

    private func target(_ parameters: FormParameters) async throws(DialogFailure) -> DialogTarget {
        guard let appID = try single(parameters, "client_id"), !appID.isEmpty else {
            throw .page(.badRequest("The request has no client_id (the app ID)."))
        }
        let app: AppRecord?
        do { app = try await store.app(id: appID) } catch {
            let cause = StoreOutage.cause(of: error) ?? "the database failed"
            throw .page(
                DialogPageError(
                    status: 503, title: "Service unavailable", message: "The provider cannot use its store (\(cause)). Try again in a few seconds."
                ))
        }
        guard let app else {
            throw .page(
                DialogPageError(
                    status: 404, title: "App not found",
                    message: "No app with ID \(appID) is registered with this provider."
                ))
        }
        let redirectURI = try single(parameters, "redirect_uri") ?? ""
        do { try RedirectURIRule.check(redirectURI, app: app) } catch {
            throw .page(DialogPageError(status: 400, title: "Invalid redirect URI", message: error.description))
        }
        let modeText = try single(parameters, "response_mode")
        let mode: ResponseMode
        if let modeText {
            guard let parsed = ResponseMode(rawValue: modeText) else {
                throw .page(.badRequest("response_mode must be fragment, query or form_post, not \(modeText)."))
            }
            mode = parsed
        } else {
            mode = .fragment
        }
        let state = try single(parameters, "state")
        if let state, state.utf8.count > Self.maximumStateLength {
            throw .page(.badRequest("The state is longer than \(Self.maximumStateLength) bytes."))
        }
        return DialogTarget(app: app, redirectURI: redirectURI, responseMode: mode, state: state)
    }

    private func request(_ parameters: FormParameters, target: DialogTarget, query: String) throws(DialogErrorResponse) -> DialogRequest {
        func value(_ name: String) throws(DialogErrorResponse) -> String? {
            do { return try parameters.single(name) } catch { throw .invalidRequest("\(error.description).") }
        }
        let limited = try value("tp").map { $0.hasSameBytes(as: "ios_14_do_not_track") } ?? false

        let responseTypeText = try value("response_type") ?? (limited ? "id_token" : "code")
        var responseTypes: Set<ResponseType> = []
        for name in Self.list(responseTypeText) {
            guard let type = ResponseType(rawValue: name) else {
                throw DialogErrorResponse(
                    error: "unsupported_response_type", code: 100, message: "The response_type \(name) is not supported."
                )
            }
            responseTypes.insert(type)
        }
        guard !responseTypes.isEmpty else { throw .invalidRequest("response_type is empty.") }
        if limited {
            guard responseTypes.contains(.idToken) else {
                throw .invalidRequest("A limited login (tp=ios_14_do_not_track) returns an ID token: response_type must include id_token.")
            }
            if responseTypes.contains(.token) || responseTypes.contains(.code) {
                throw .invalidRequest("A limited login issues no access token or code: drop token and code from response_type.")
            }
        }

        var scope: [Permission] = [.publicProfile]
        for name in Self.list(try value("scope") ?? "") {
            let permission = Permission(name: name)
            guard permission.isValid else {
                throw .invalidScope("\(name) is not a valid permission name (only a-z and _).")
            }
            if permission == Permission(name: "openid") || scope.contains(permission) { continue }
            if limited && !permission.isAllowedInLimitedLogin {
                throw .invalidScope("\(name) cannot be requested in a limited login; only the limited set is allowed.")
            }
            scope.append(permission)
        }

        let nonce = try value("nonce")
        let wantsIDToken = limited || responseTypes.contains(.idToken)
        if let nonce {
            guard Nonce.isValid(nonce) else {
                throw .invalidRequest("The nonce must be non-empty, without whitespace or control characters.")
            }
        } else if wantsIDToken {
            throw .invalidRequest("A nonce is required when an ID token is requested.")
        }

        let authType: DialogAuthType?
        if let text = try value("auth_type"), !text.isEmpty {
            guard let parsed = DialogAuthType(rawValue: text) else {
                throw .invalidRequest("auth_type must be rerequest or reauthorize, not \(text).")
            }
            authType = parsed
        } else {
            authType = nil
        }

        let challenge = try value("code_challenge")
        if let challenge {
            guard try value("code_challenge_method").map({ $0.hasSameBytes(as: "S256") }) ?? false else {
                throw .invalidRequest("code_challenge_method must be S256.")
            }
            guard challenge.utf8.count == 43, (try? Base64URL.decode(challenge))?.count == 32 else {
                throw .invalidRequest("code_challenge must be the base64url SHA-256 of the code verifier (43 characters).")
            }
        }

        let prompt = try value("prompt")
        if let prompt, !prompt.isEmpty, !prompt.hasSameBytes(as: "none") {
            throw .invalidRequest("prompt must be none when given, not \(prompt).")
        }
        return DialogRequest(
            target: target, responseTypes: responseTypes, scope: scope, nonce: nonce, limited: limited,
            authType: authType, codeChallenge: challenge, promptNone: prompt != nil && !(prompt ?? "").isEmpty,
            idTokenHint: try value("id_token_hint"), query: query
        )
    }

    /// A comma- or space-separated list.
    static func list(_ text: String) -> [String] {
        text.utf8.split(whereSeparator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") })
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
