import HTTPTypes
import Hummingbird

/// The dialog's cookies: `ll_session` (who is signed in) and `ll_browser` (binds the sign-in form's CSRF
/// token to this browser before anyone is signed in; issued and authenticated by the server, see
/// ``CSRFProtection/newBrowserID()``). Both HttpOnly, SameSite=Lax, Secure behind HTTPS.
enum BrowserCookies {
    static let session = "ll_session"
    static let browser = "ll_browser"

    static func make(name: String, value: String, maxAge: Int?, secure: Bool) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// A cookie value as sent, or nil when absent or not made of base64url characters.
    static func value(_ name: String, in request: Request) -> String? {
        guard let value = cookie(name, in: request), !value.isEmpty, value.utf8.count <= 128,
            value.utf8.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        return value
    }

    /// The first cookie called `name` in the request's Cookie headers.
    private static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
                let trimmed = pair.drop { $0 == UInt8(ascii: " ") }
                guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")),
                    trimmed[trimmed.startIndex..<equals].elementsEqual(name.utf8)
                else { continue }
                return String(decoding: trimmed[trimmed.index(after: equals)...], as: UTF8.self)
            }
        }
        return nil
    }
}
