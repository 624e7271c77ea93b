/// Whom a minted token is for: a stored test user (by ID or email), or a subject no stored user has
/// (`"subject"` in `POST /_admin/tokens`), for a backend test that needs a particular `sub`.
enum MintSubject: Sendable, Equatable {
    case user(String)
    case unstored(String)

    /// The `sub` to put in the token as given, or nil for a stored user (whose app-scoped ID is used).
    var unstoredSubject: String? {
        if case .unstored(let sub) = self { return sub }
        return nil
    }

    /// 1 to 64 of `A–Z a–z 0–9 - _ .`: what a backend can key an account on and a log line can carry.
    static func isAcceptable(_ sub: String) -> Bool {
        (1...64).contains(sub.utf8.count)
            && sub.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }

    /// The profile an unstored subject's claims are built from: "Test User", `<sub>@example.invalid`
    /// (a reserved domain no mail reaches). The request's `claims` replace any of them.
    static func standIn(for sub: String) -> TestUserRecord {
        TestUserRecord(id: sub, firstName: "Test", lastName: "User", email: "\(sub.lowercased())@example.invalid")
    }
}
