import Crypto
import Hummingbird
import LimitedLoginJOSE

/// The console's sign-in: an `ll_console` cookie made when the admin token (or a scoped credential's token)
/// is given, and the CSRF token every console form carries.
///
/// The cookie is a random ID, an expiry, for a scoped credential its name, and an HMAC-SHA256 over them, a
/// hash of the admin token (or of the credential's token, so that a session is the credential's and no
/// other's) and the sessions' generation (``ConsoleEpoch``), under the provider's form secret (kept in the store, so every
/// node accepts it). Signing out and changing the admin token start a new generation, which ends every
/// console session for good (a restart does not revive them). It is HttpOnly, SameSite=Strict, limited to
/// `/_console`, and Secure behind HTTPS. A form's token is an HMAC of the session's cookie: a page on
/// another site can neither read it nor make it, and a token from one session is refused in another.
struct ConsoleSession: Sendable {
    static let cookieName = "ll_console"
    static let path = "/_console"
    /// How long a console sign-in lasts, in seconds.
    static let lifetime: Int64 = 8 * 3600

    private static let idLength = 18
    private static let macLength = 32

    let key: SymmetricKey
    let adminTokenHash: [UInt8]

    init(csrf: CSRFProtection, adminToken: String) {
        key = csrf.key
        adminTokenHash = Array(SHA256.hash(data: Array(adminToken.utf8)))
    }

    /// A new session's cookie value, in generation `epoch`: the organisation's, or `credential`'s.
    func newSession(now: Int64, epoch: String, credential: AdminCredentialRecord? = nil) -> String {
        let id = (0..<Self.idLength).map { _ in UInt8.random(in: .min ... .max) }
        let signed = id + Self.bigEndian(now + Self.lifetime) + Array((credential?.name ?? "").utf8)
        return Base64URL.encode(signed + mac(signed, Self.secretHash(credential) ?? adminTokenHash, epoch: epoch))
    }

    /// A cookie read but not yet checked: its value, and the credential it names (nil: the organisation's).
    struct Presented {
        let value: String
        let credentialName: String?
        fileprivate let signed: [UInt8]
        fileprivate let mac: [UInt8]
        fileprivate let expiresAt: Int64
    }

    /// The request's session cookie as it reads, before its HMAC is checked (``isValid(_:credential:now:epoch:)``).
    func presented(in request: Request) -> Presented? {
        guard let value = BrowserCookies.value(Self.cookieName, in: request), let bytes = try? Base64URL.decode(value),
            (Self.idLength + 8 + Self.macLength...Self.idLength + 8 + 64 + Self.macLength).contains(bytes.count)
        else { return nil }
        let signed = Array(bytes[0..<(bytes.count - Self.macLength)])
        let name = signed.count > Self.idLength + 8 ? String(decoding: signed[(Self.idLength + 8)...], as: UTF8.self) : nil
        let expiresAt = signed[Self.idLength..<(Self.idLength + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return Presented(value: value, credentialName: name, signed: signed, mac: Array(bytes.suffix(Self.macLength)), expiresAt: expiresAt)
    }

    /// True when this provider made the cookie, in generation `epoch`, for the admin token (`credential`
    /// nil) or for that credential as it is stored now, and it has not expired.
    func isValid(_ presented: Presented, credential: AdminCredentialRecord?, now: Int64, epoch: String) -> Bool {
        guard presented.expiresAt > now, presented.credentialName == credential?.name else { return false }
        let secret = Self.secretHash(credential) ?? adminTokenHash
        return HMAC<SHA256>.isValidAuthenticationCode(presented.mac, authenticating: Self.input(presented.signed, secret, epoch: epoch), using: key)
    }

    /// What a credential's sessions are signed with: its token's stored hash (a new credential of the same name
    /// after a revocation cannot take over an old session).
    private static func secretHash(_ credential: AdminCredentialRecord?) -> [UInt8]? {
        credential.map { Array("credential|\($0.tokenSHA256)".utf8) }
    }

    /// The CSRF token of the session's forms.
    func formToken(for session: String) -> String {
        Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Array("console-form|\(session)".utf8), using: key)))
    }

    /// True when `token` is this session's form token (compared in constant time).
    func isFormToken(_ token: String?, for session: String) -> Bool {
        guard let token, token.utf8.count <= 64 else { return false }
        return constantTimeEquals(token, formToken(for: session))
    }

    func cookie(_ value: String, secure: Bool) -> Cookie {
        Cookie(name: Self.cookieName, value: value, maxAge: Int(Self.lifetime), path: Self.path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    func endingCookie(secure: Bool) -> Cookie {
        Cookie(name: Self.cookieName, value: "", maxAge: 0, path: Self.path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    private func mac(_ signed: [UInt8], _ secretHash: [UInt8], epoch: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Self.input(signed, secretHash, epoch: epoch), using: key))
    }

    private static func input(_ signed: [UInt8], _ secretHash: [UInt8], epoch: String) -> [UInt8] {
        Array("console|".utf8) + secretHash + Array("|\(epoch)|".utf8) + signed
    }

    private static func bigEndian(_ value: Int64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
