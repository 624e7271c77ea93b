/// The letter-in-a-circle that stands for an app or a person on the pages (no pictures are fetched), and
/// its color, which stays the same for the same ID.
enum Avatar {
    /// The first letter of `name`, upper-cased; `?` for a name with no letter.
    static func initial(of name: String) -> String {
        guard let letter = name.first(where: { $0.isLetter || $0.isNumber }) else { return "?" }
        return letter.uppercased()
    }

    /// One of the stylesheet's six avatar colors (`c0`…`c5`), chosen by the ID's bytes.
    static func colorClass(for id: String) -> String {
        var sum = 0
        for byte in id.utf8 { sum = (sum &* 31 &+ Int(byte)) & 0xFFFF }
        return "c\(sum % 6)"
    }
}
