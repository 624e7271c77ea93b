import Foundation
import LimitedLoginJOSE

/// Builds valid tokens, and hostile ones, for verifier tests.
public struct TokenFactory: Sendable {
    public var key: RS256PrivateKey
    public var keyID: String
    public var issuer: String
    public var appID: String
    public var nonce: String
    public var now: Date

    public init(
        key: RS256PrivateKey = TestKeys.primary,
        keyID: String = "key-1",
        issuer: String = "https://issuer.test",
        appID: String = "1234567890",
        nonce: String = "nonce-7f3a",
        now: Date = Date(timeIntervalSince1970: 1_800_000_000)
    ) {
        self.key = key
        self.keyID = keyID
        self.issuer = issuer
        self.appID = appID
        self.nonce = nonce
        self.now = now
    }

    /// A complete, valid claim set issued at `now`.
    public var claims: JSONObject {
        [
            "iss": .string(issuer), "aud": .string(appID), "sub": "1029384756", "jti": "jti-0001",
            "nonce": .string(nonce), "iat": .number(now.timeIntervalSince1970),
            "exp": .number(now.timeIntervalSince1970 + 3600),
            "name": "Ada Lovelace", "given_name": "Ada", "family_name": "Lovelace",
            "email": "ada@example.test", "picture": "https://issuer.test/pictures/1029384756",
            "user_friends": ["555", "777"], "user_birthday": "12/10/1990",
            "user_age_range": ["min": 21], "user_hometown": ["id": "110", "name": "London"],
            "user_location": ["id": "111", "name": "Paris"], "user_gender": "female",
            "user_link": "https://issuer.test/ada",
        ]
    }

    /// The standard header: `{"alg":"RS256","kid":…,"typ":"JWT"}`.
    public var header: JSONObject {
        ["alg": "RS256", "typ": "JWT", "kid": .string(keyID)]
    }

    /// A valid token, with claims changed by `change`.
    public func token(_ change: (inout JSONObject) -> Void = { _ in }) -> String {
        var claims = self.claims
        change(&claims)
        return token(header: header, claims: claims)
    }

    /// A token with this header and claims, signed by ``key``.
    public func token(header: JSONObject, claims: JSONObject) -> String {
        token(
            headerText: String(decoding: JSONSerializer.serialize(.object(header)), as: UTF8.self),
            payloadText: String(decoding: JSONSerializer.serialize(.object(claims)), as: UTF8.self))
    }

    /// A token whose header and payload are exactly these texts, signed by ``key``.
    public func token(headerText: String, payloadText: String) -> String {
        token(headerBytes: Array(headerText.utf8), payloadBytes: Array(payloadText.utf8))
    }

    /// A token whose header and payload are exactly these bytes, signed by ``key``.
    public func token(headerBytes: [UInt8], payloadBytes: [UInt8]) -> String {
        do {
            return try JWSSigner(privateKey: key, keyID: keyID).sign(headerBytes: headerBytes, payloadBytes: payloadBytes)
        } catch {
            fatalError("signing failed: \(error)")
        }
    }

    /// The payload's JSON text of a valid token, for building variants by hand.
    public var claimsText: String { String(decoding: JSONSerializer.serialize(.object(claims)), as: UTF8.self) }
    /// The header's JSON text.
    public var headerText: String { String(decoding: JSONSerializer.serialize(.object(header)), as: UTF8.self) }
}
