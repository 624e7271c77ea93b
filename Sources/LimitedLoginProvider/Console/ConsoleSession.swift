import Crypto
import Hummingbird
import LimitedLoginJOSE

/// The console's sign-in: an `ll_console` cookie made when the admin token is given, and the CSRF token
/// every console form carries.
///
/// The cookie is a random ID, an expiry and an HMAC-SHA256 over both, a hash of the admin token and the
/// sessions' generation (``ConsoleEpoch``), under the provider's form secret (kept in the store, so every
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

    /// A new session's cookie value, in generation `epoch`.
    func newSession(now: Int64, epoch: String) -> String {
        let id = (0..<Self.idLength).map { _ in UInt8.random(in: .min ... .max) }
        let expiry = Self.bigEndian(now + Self.lifetime)
        return Base64URL.encode(id + expiry + mac(id + expiry, epoch: epoch))
    }

    /// The request's session cookie when this provider made it for the current admin token in generation
    /// `epoch` and it has not expired; nil otherwise.
    func session(in request: Request, now: Int64, epoch: String) -> String? {
        guard let value = BrowserCookies.value(Self.cookieName, in: request), let bytes = try? Base64URL.decode(value),
            bytes.count == Self.idLength + 8 + Self.macLength
        else { return nil }
        let signed = Array(bytes[0..<(Self.idLength + 8)])
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                Array(bytes[(Self.idLength + 8)...]), authenticating: Self.input(signed, adminTokenHash, epoch: epoch), using: key)
        else { return nil }
        let expiresAt = signed[Self.idLength...].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return expiresAt > now ? value : nil
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

    private func mac(_ signed: [UInt8], epoch: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Self.input(signed, adminTokenHash, epoch: epoch), using: key))
    }

    private static func input(_ signed: [UInt8], _ adminTokenHash: [UInt8], epoch: String) -> [UInt8] {
        Array("console|".utf8) + adminTokenHash + Array("|\(epoch)|".utf8) + signed
    }

    private static func bigEndian(_ value: Int64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
