import Crypto
import LimitedLoginJOSE

/// A PKCE code verifier (RFC 7636) for the classic code flow.
public struct CodeVerifier: Sendable, Equatable, Codable {
    /// 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    public let value: String

    private static let unreserved: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// A fresh random verifier of 64 characters.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<64).map { _ in Self.unreserved[Int(generator.next(upperBound: UInt(Self.unreserved.count)))] }
        self.value = String(decoding: characters, as: UTF8.self)
    }

    /// A verifier with this value, or nil when it breaks the RFC 7636 rules.
    public init?(string: String) {
        guard Self.isValid(string) else { return nil }
        self.value = string
    }

    /// True for 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    public static func isValid(_ string: String) -> Bool {
        (43...128).contains(string.utf8.count) && string.utf8.allSatisfy { unreserved.contains($0) }
    }

    /// The S256 challenge: base64url(SHA-256(verifier)).
    public var challenge: String {
        Base64URL.encode(SHA256.hash(data: Array(value.utf8)))
    }

    /// The challenge method sent with ``challenge``.
    public static let challengeMethod = "S256"

    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        guard Self.isValid(string) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid PKCE code verifier"))
        }
        self.value = string
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
