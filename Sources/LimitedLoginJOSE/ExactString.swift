extension String {
    /// True when both strings have the same UTF-8 bytes.
    ///
    /// Swift's `==` compares by Unicode canonical equivalence, so `"\u{212A}" == "K"` (Kelvin sign and
    /// Latin K). Member names, issuers and audiences must match exactly, byte for byte, so they are
    /// compared with this instead.
    @inlinable
    public func hasSameBytes(as other: String) -> Bool {
        // Borrowing views, no copies: copying a String to call a mutating `withUTF8` costs a retain.
        let left = utf8, right = other.utf8
        guard left.count == right.count else { return false }
        let contiguous = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                JSONDocument.bytesEqual(UnsafeRawBufferPointer(leftBytes), at: 0, UnsafeRawBufferPointer(rightBytes))
            }
        }
        // Bridged strings have no contiguous UTF-8; compare them element by element.
        return (contiguous ?? nil) ?? left.elementsEqual(right)
    }
}
