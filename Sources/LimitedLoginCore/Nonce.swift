import Crypto

/// The rule for a login nonce, shared by the configuration, the dialog and the SDK.
public enum Nonce {
    /// True when `nonce` is non-empty and has no whitespace, control or invisible formatting character.
    ///
    /// The iOS SDK documents that a nonce must be "a non-empty string without whitespace"; control and
    /// invisible formatting characters (zero-width space, byte-order mark) are refused too, because a
    /// nonce that looks equal but is not will fail verification in a way nobody can see.
    public static func isValid(_ nonce: String) -> Bool {
        guard !nonce.isEmpty else { return false }
        // The common case, printable ASCII with no space, needs no Unicode property lookups.
        if nonce.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return true }
        return nonce.unicodeScalars.allSatisfy { scalar in
            let properties = scalar.properties
            switch properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
            default: return !properties.isWhitespace
            }
        }
    }

    /// What a login carries when the app keeps a raw nonce and sends its hash (Firebase, Supabase): the
    /// lowercase hex of SHA-256 over the raw nonce's UTF-8 bytes.
    public static func sha256Hex(ofRaw raw: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output = [UInt8]()
        output.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(raw.utf8)) {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
