/// The `form-action` source of a `form_post` answer's Content-Security-Policy, made from the redirect URI.
///
/// A policy is a list of directives separated by `;`, and a directive's sources by spaces; a redirect URI
/// may hold a `;` or a `,` (a loopback path is the client's choice), which would otherwise end the
/// directive and add ones of the client's choosing. The query and fragment are cut (a source has
/// neither), and `;`, `,`, quotes and any space or control character are percent-encoded, as CSP's
/// path grammar asks: the source still matches the URI the form posts to.
///
/// CSP's host sources cannot hold an IPv6 address (`http://[::1]:8000/cb` is an invalid source, which
/// browsers drop, leaving `form-action` with nothing: the post is blocked). For such a host the source is
/// the scheme alone (`http:`): the form's target is the page's own, and the policy still allows no other
/// scheme.
enum FormActionSource {
    static func of(_ redirectURI: String) -> String {
        if let separator = redirectURI.range(of: "://"), redirectURI[separator.upperBound...].hasPrefix("[") {
            let scheme = redirectURI[..<separator.lowerBound]
            if !scheme.isEmpty, scheme.utf8.allSatisfy({ (0x61...0x7A).contains($0 | 0x20) }) { return scheme.lowercased() + ":" }
        }
        let cut = redirectURI.prefix { $0 != "?" && $0 != "#" }
        var source = ""
        for byte in cut.utf8 {
            switch byte {
            case UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "'"), UInt8(ascii: "\""), 0...0x20, 0x7F...0xFF:
                source += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            default:
                source.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return source
    }
}
