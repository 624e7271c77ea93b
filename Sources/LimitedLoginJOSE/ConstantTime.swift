/// Compares two byte sequences in time that depends only on their lengths, for secrets (nonces, app
/// secrets, admin tokens, password hashes) that an attacker could otherwise guess byte by byte.
@inlinable
public func constantTimeEquals<Left: Collection, Right: Collection>(_ lhs: Left, _ rhs: Right) -> Bool
where Left.Element == UInt8, Right.Element == UInt8 {
    if let result = lhs.withContiguousStorageIfAvailable({ left in
        rhs.withContiguousStorageIfAvailable { right in constantTimeDifference(left, right) == 0 }
    }), let result {
        return result
    }
    let left = Array(lhs)
    let right = Array(rhs)
    return left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { constantTimeDifference(left, $0) == 0 } }
}

@usableFromInline
func constantTimeDifference(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> UInt8 {
    var difference: UInt8 = left.count == right.count ? 0 : 1
    for index in 0..<min(left.count, right.count) { difference |= left[index] ^ right[index] }
    return difference
}

/// Compares two strings' UTF-8 bytes in time that depends only on their lengths.
public func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { left in rhs.withUTF8 { right in constantTimeEquals(left, right) } }
}
