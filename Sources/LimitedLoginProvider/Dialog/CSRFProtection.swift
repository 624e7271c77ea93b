import Crypto
import LimitedLoginJOSE

/// Tokens for the dialog's forms, and the browser cookie the sign-in form's token is bound to.
///
/// A form token is a random nonce, an expiry and an HMAC-SHA256 over them, the form's purpose and the
/// browser's binding (the session for consent, the `ll_browser` cookie for sign-in), under a secret kept
/// in the store so that every node accepts every node's forms. Checking the HMAC needs no storage; a
/// token is single use because posting it records its hash in the store (see ``FormTokenCheck``).
struct CSRFProtection: Sendable {
    enum Purpose: String, Sendable {
        case signIn = "sign-in"
        case consent
    }

    /// How long a rendered form can be posted, in seconds.
    static let tokenLifetime: Int64 = 3600

    private static let nonceLength = 16
    private static let macLength = 32
    private static let browserIDLength = 32
    private static let browserMACLength = 16

    let key: SymmetricKey

    init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    // MARK: - Form tokens

    /// A new token for one rendering of a form.
    func token(for purpose: Purpose, binding: String, now: Int64) -> String {
        let nonce = (0..<Self.nonceLength).map { _ in UInt8.random(in: .min ... .max) }
        let expiry = Self.bigEndian(now + Self.tokenLifetime)
        let mac = HMAC<SHA256>.authenticationCode(for: Self.signed(purpose, binding, nonce, expiry), using: key)
        return Base64URL.encode(nonce + expiry + Array(mac))
    }

    /// What a posted token is worth: made here for this purpose and binding (compared in constant time)
    /// and not expired. Whether it was posted before is the store's to say.
    func check(_ token: String?, for purpose: Purpose, binding: String?, now: Int64) -> FormTokenCheck {
        guard let token, let binding, token.utf8.count <= 128, let bytes = try? Base64URL.decode(token),
            bytes.count == Self.nonceLength + 8 + Self.macLength
        else { return .invalid }
        let nonce = Array(bytes[0..<Self.nonceLength])
        let expiry = Array(bytes[Self.nonceLength..<(Self.nonceLength + 8)])
        let mac = Array(bytes[(Self.nonceLength + 8)...])
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Self.signed(purpose, binding, nonce, expiry), using: key)
        else { return .invalid }
        let expiresAt = expiry.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard expiresAt > now else { return .expired }
        return .valid(hash: RandomIdentifiers.storageHash(token), expiresAt: expiresAt)
    }

    private static func signed(_ purpose: Purpose, _ binding: String, _ nonce: [UInt8], _ expiry: [UInt8]) -> [UInt8] {
        Array("form|\(purpose.rawValue)|\(binding)|".utf8) + nonce + expiry
    }

    private static func bigEndian(_ value: Int64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    // MARK: - The browser cookie

    /// A new `ll_browser` value: a random ID and its HMAC, so that only values this provider issued are
    /// accepted. A page that plants a cookie of its choosing gets it replaced, and cannot make a form
    /// token for it.
    func newBrowserID() -> String {
        let id = Base64URL.encode((0..<Self.browserIDLength).map { _ in UInt8.random(in: .min ... .max) })
        return id + browserMAC(id)
    }

    /// The cookie's value when this provider issued it; nil for a forged, altered or malformed one.
    func authenticBrowserID(_ value: String?) -> String? {
        // Unpadded base64url: 4 characters per 3 bytes, rounded up.
        let idLength = (Self.browserIDLength * 4 + 2) / 3
        let macLength = (Self.browserMACLength * 4 + 2) / 3
        guard let value, value.utf8.count == idLength + macLength else { return nil }
        let id = String(value.prefix(idLength))
        guard constantTimeEquals(String(value.dropFirst(idLength)), browserMAC(id)) else { return nil }
        return value
    }

    private func browserMAC(_ id: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("browser|\(id)".utf8), using: key)
        return Base64URL.encode(Array(mac.prefix(Self.browserMACLength)))
    }
}

/// The verdict on a posted form token before the store is asked whether it was used.
enum FormTokenCheck: Equatable, Sendable {
    /// Made here for this form and browser, and unexpired: consume it by its hash.
    case valid(hash: String, expiresAt: Int64)
    /// Expired: the page was left open too long.
    case expired
    /// Missing, malformed, forged, or made for another form or browser.
    case invalid
}
