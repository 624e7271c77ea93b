import Crypto
import Foundation
import LimitedLoginJOSE
import _CryptoExtras

/// Test users' passwords, stored as `pbkdf2-sha256$<rounds>$<salt>$<hash>` (base64url).
///
/// The rounds are below OWASP's 600,000 on purpose: these are test accounts of a local provider, and a
/// suite that signs in hundreds of times must stay fast. The format records the rounds, so a stored hash
/// stays checkable if the default changes.
enum PasswordHasher {
    static let defaultRounds = 20_000

    /// The most rounds an imported hash may ask for: 10 × ``defaultRounds``. More would let a fixtures file
    /// or an admin request make each sign-in as that user cost seconds of CPU (tried: 9 s at 10,000,000).
    static let maximumImportedRounds = defaultRounds * 10

    /// Why an imported `pbkdf2-sha256$<rounds>$<salt>$<hash>` cannot be taken, or nil.
    static func importProblem(_ stored: String) -> String? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds >= 1,
            let salt = try? Base64URL.decode(String(parts[2])), !salt.isEmpty,
            let hash = try? Base64URL.decode(String(parts[3])), hash.count == 32
        else { return "is not pbkdf2-sha256$<rounds>$<salt>$<hash> (base64url; as export writes it)" }
        guard rounds <= maximumImportedRounds else {
            return "asks for \(rounds) rounds, more than the \(maximumImportedRounds) allowed (10 × the provider's \(defaultRounds))"
        }
        return nil
    }

    static func hash(_ password: String, rounds: Int = defaultRounds) -> String {
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let derived = derive(password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Base64URL.encode(salt))$\(Base64URL.encode(derived))"
    }

    /// `hash` when given (an imported hash, kept as it is), else `password` hashed off the event loop
    /// (``OffEventLoop``), else nil (a user without a password).
    static func storedHash(_ hash: String?, orHashing password: String?) async -> String? {
        if let hash { return hash }
        guard let password else { return nil }
        return await OffEventLoop.run { Self.hash(password) }
    }

    /// True when `password` matches `stored`; false for any malformed stored value.
    static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), (1...10_000_000).contains(rounds),
            let salt = try? Base64URL.decode(String(parts[2])), let expected = try? Base64URL.decode(String(parts[3]))
        else { return false }
        let derived = derive(password, salt: salt, rounds: rounds)
        return derived.count == 32 && constantTimeEquals(derived, expected)
    }

    /// Checks `password` against a user's stored hash, or, when there is no user or the user has no
    /// password, against a decoy hash of the same cost, and answers false.
    ///
    /// So a failed sign-in costs the same whether the email is known or not: the time of one answer
    /// does not tell who has an account.
    static func verify(_ password: String, againstUserHash stored: String?) -> Bool {
        guard let stored else {
            _ = verify(password, against: decoy)
            return false
        }
        return verify(password, against: stored)
    }

    /// A hash of a random password no one knows, made once per process with the default rounds.
    static let decoy = hash(RandomIdentifiers.secret())

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) -> [UInt8] {
        guard
            let key = try? KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds
            )
        else { return [] }
        return key.withUnsafeBytes { Array($0) }
    }
}
