/// What a test user's ID may hold, and so what the console's forms take as an ID: ASCII letters, digits,
/// `_`, `-`, `.` and `@`, one to 200 of them. Such an ID goes into a path or a query string as it is, and
/// into a page without changing its meaning.
enum RecordID {
    static let maximumLength = 200

    static func isAcceptable(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumLength && value.unicodeScalars.allSatisfy(isAllowed)
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "@": return true
        default: return false
        }
    }
}
