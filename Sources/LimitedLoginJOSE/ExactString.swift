extension String {
    /// True when both strings have the same UTF-8 bytes.
    ///
    /// Swift's `==` compares by Unicode canonical equivalence, so `"\u{212A}" == "K"` (Kelvin sign and
    /// Latin K). Member names, issuers and audiences must match exactly, byte for byte, so they are
    /// compared with this instead.
    @inlinable
    public func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var left = self, right = other
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                for index in 0..<leftBytes.count where leftBytes[index] != rightBytes[index] { return false }
                return true
            }
        }
    }
}
