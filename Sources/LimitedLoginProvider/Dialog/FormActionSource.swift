/// The `form-action` source of a `form_post` answer's Content-Security-Policy, made from the redirect URI.
///
/// A policy is a list of directives separated by `;`, and a directive's sources by spaces; a redirect URI
/// may hold a `;` or a `,` (a loopback path is the client's choice), which would otherwise end the
/// directive and add ones of the client's choosing. The query and fragment are cut (a source has
/// neither), and `;`, `,`, quotes and any space or control character are percent-encoded, as CSP's
/// path grammar asks: the source still matches the URI the form posts to.
enum FormActionSource {
    static func of(_ redirectURI: String) -> String {
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
