import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// What `POST /_admin/tokens` and the console's mint form ask for, read from the request's JSON body
/// (``AdminTokenController`` describes the keys). Every fault of the body is refused here, naming the key,
/// before ``AdminOperations/mintToken(_:)`` looks anything up.
struct MintRequest: Sendable {
    var appID: String
    var subject: MintSubject
    var tracking: LoginTracking
    /// The permissions asked for, `public_profile` among them.
    var permissions: Set<Permission>
    var nonce: String
    var defect: TokenDefect?
    /// Mint even for a role-less person while the app is in development mode.
    var ignoreDevelopmentMode: Bool
    var overrides: TokenClaimOverrides.Request

    /// The keys a minting request may hold; any other is refused, naming it.
    static let keys = [
        "app_id", "user", "subject", "permissions", "nonce", "raw_nonce", "tracking", "defect", "claims", "lifetime", "iat", "exp",
        "ignore_development_mode",
    ]

    /// Reads `body` for a token issued at `now` that lasts `idTokenLifetime` seconds unless the body says otherwise.
    init(_ body: JSONObject, now: Int64, idTokenLifetime: Int64) throws(AdminError) {
        if let message = body.unknownKeyMessage(accepted: Self.keys) { throw AdminError.badRequest(message) }
        guard let appID = body["app_id"]?.stringValue, !appID.isEmpty else { throw AdminError.badRequest("Give \"app_id\".") }
        self.appID = appID
        switch (body["user"], body["subject"]) {
        case (.string(let name)?, nil) where !name.isEmpty: subject = .user(name)
        case (nil, .string(let sub)?) where MintSubject.isAcceptable(sub): subject = .unstored(sub)
        case (nil, nil): throw AdminError.badRequest("Give \"user\": a test user's ID or email (or \"subject\": a sub no stored user has).")
        case (_?, _?): throw AdminError.badRequest("Give \"user\" or \"subject\", not both.")
        case (_?, nil): throw AdminError.badRequest("\"user\" must be a test user's ID or email.")
        case (nil, _?): throw AdminError.badRequest("\"subject\" must be 1 to 64 letters, digits, '-', '_' or '.'.")
        }
        switch body["ignore_development_mode"] {
        case nil, .bool(false)?: ignoreDevelopmentMode = false
        case .bool(true)?: ignoreDevelopmentMode = true
        default: throw AdminError.badRequest("\"ignore_development_mode\" must be true or false.")
        }
        switch body["tracking"]?.stringValue ?? (body["tracking"] == nil ? "limited" : nil) {
        case "limited"?: tracking = .limited
        case "enabled"?: tracking = .enabled
        default: throw AdminError.badRequest("\"tracking\" must be \"limited\" or \"enabled\".")
        }
        if tracking == .enabled, case .unstored = subject {
            throw AdminError.badRequest(
                "A \"subject\" without a stored user gets an ID token only (\"tracking\": \"limited\"); give \"user\" for a classic login.")
        }
        defect = nil
        if let value = body["defect"] {
            guard let name = value.stringValue, let known = TokenDefect(rawValue: name) else {
                throw AdminError.badRequest(
                    "Unknown defect \(value.stringValue.map { "\"\($0)\"" } ?? "(not a string)"); one of: "
                        + TokenDefect.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            defect = known
        }
        let names: [String]
        switch body["permissions"] {
        case nil: names = ["public_profile"]
        case .string(let text)?: names = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        case .array(let values)?:
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw AdminError.badRequest("\"permissions\" must be a list of permission names.") }
            names = strings
        default: throw AdminError.badRequest("\"permissions\" must be a list of permission names, or one comma-separated string.")
        }
        switch (body["nonce"], body["raw_nonce"]) {
        case (nil, nil): nonce = UUID().uuidString
        case (.string(let text)?, nil): nonce = text
        case (nil, .string(let raw)?): nonce = Nonce.sha256Hex(ofRaw: raw)
        case (_?, _?): throw AdminError.badRequest("Give \"nonce\" or \"raw_nonce\", not both.")
        case (_?, nil): throw AdminError.badRequest("\"nonce\" must be a string.")
        case (nil, _?): throw AdminError.badRequest("\"raw_nonce\" must be a string.")
        }
        switch TokenClaimOverrides.read(body, issuedAt: now, lifetime: idTokenLifetime) {
        case .failure(let message): throw AdminError.badRequest(message.text)
        case .success(let times): overrides = times
        }
        permissions = Set(names.map { Permission(name: $0) })
        permissions.insert(.publicProfile)
        do { try LoginConfiguration.validate(permissions: permissions, tracking: tracking, nonce: nonce) } catch {
            throw AdminError.badRequest(error.description)
        }
    }
}
