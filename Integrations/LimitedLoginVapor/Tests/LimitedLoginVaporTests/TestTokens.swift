import Foundation
import LimitedLoginJOSE

/// A real RSA key and the tokens it signs, as a Limited Login provider would issue them.
struct TestTokens: Sendable {
    static let issuer = "https://issuer.test"
    static let iosApp = "1234567890"
    static let gameApp = "2222222222"
    static let nonce = "nonce-7f3a"
    static let keyID = "key-1"

    /// Generated once per test process: generation is the slow part.
    static let key: RS256PrivateKey = {
        do { return try RS256PrivateKey.generate(bits: 2048) } catch { fatalError("cannot generate a test RSA key: \(error)") }
    }()

    /// Another key, for tokens the key set does not vouch for.
    static let strangerKey: RS256PrivateKey = {
        do { return try RS256PrivateKey.generate(bits: 2048) } catch { fatalError("cannot generate a test RSA key: \(error)") }
    }()

    /// The public key set: ``key`` under ``keyID``.
    static var keySet: JSONWebKeySet {
        JSONWebKeySet(keys: [RSAJSONWebKey(publicKey: key.publicKey, keyID: keyID)])
    }

    /// A valid claim set for the iOS app, issued now (the verifiers here use the wall clock).
    static func claims(now: Date = Date()) -> JSONObject {
        [
            "iss": .string(issuer), "aud": .string(iosApp), "sub": "1029384756", "jti": .string(UUID().uuidString),
            "nonce": .string(nonce), "iat": .number(now.timeIntervalSince1970),
            "exp": .number(now.timeIntervalSince1970 + 3600),
            "name": "Ada Lovelace", "given_name": "Ada", "family_name": "Lovelace", "email": "ada@example.test",
        ]
    }

    /// A token signed by `key`, with the claims changed by `change`.
    static func token(signedBy key: RS256PrivateKey = key, _ change: (inout JSONObject) -> Void = { _ in }) throws -> String {
        var claims = claims()
        change(&claims)
        return try JWSSigner(privateKey: key, keyID: keyID).sign(claims: claims)
    }
}
