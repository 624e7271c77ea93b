/// Compares two byte sequences in time that depends only on their lengths, for secrets (nonces, app
/// secrets, admin tokens, password hashes) that an attacker could otherwise guess byte by byte.
public func constantTimeEquals<Left: Collection, Right: Collection>(_ lhs: Left, _ rhs: Right) -> Bool
where Left.Element == UInt8, Right.Element == UInt8 {
    let left = Array(lhs), right = Array(rhs)
    var difference: UInt8 = left.count == right.count ? 0 : 1
    for index in 0..<min(left.count, right.count) { difference |= left[index] ^ right[index] }
    return difference == 0
}

/// Compares two strings' UTF-8 bytes in time that depends only on their lengths.
public func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    constantTimeEquals(lhs.utf8, rhs.utf8)
}
