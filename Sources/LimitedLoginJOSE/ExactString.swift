extension String {
    /// True when both strings have the same UTF-8 bytes.
    ///
    /// Swift's `==` compares by Unicode canonical equivalence, so `"\u{212A}" == "K"` (Kelvin sign and
    /// Latin K). Member names, issuers and audiences must match exactly, byte for byte, so they are
    /// compared with this instead.
    @inlinable
    public func hasSameBytes(as other: String) -> Bool {
        // Borrowing views, no copies: copying a String to call a mutating `withUTF8` costs a retain.
        let left = utf8
        let right = other.utf8
        guard left.count == right.count else { return false }
        let contiguous = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                JSONDocument.bytesEqual(UnsafeRawBufferPointer(leftBytes), at: 0, UnsafeRawBufferPointer(rightBytes))
            }
        }
        // Bridged strings have no contiguous UTF-8; compare them element by element.
        return (contiguous ?? nil) ?? left.elementsEqual(right)
    }

    /// Calls `body` with the string's UTF-8 bytes, borrowed in place: unlike the mutating `withUTF8`, it
    /// needs no copy of the string (so no retain and release). A bridged string, which has no contiguous
    /// UTF-8, is copied first.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) { return result }
        return try Array(utf8).withUnsafeBytes(body)
    }
}
