/// Why a JSON Web Key was not usable as an RS256 verification key.
public enum JWKError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingMember(String)
    case wrongType(member: String, expected: String)
    /// `kty` is not `RSA`.
    case notRSA(keyType: String)
    /// `alg` is present and is not `RS256`.
    case algorithmMismatch(String)
    /// `use` is present and is not `sig`.
    case useMismatch(String)
    /// `key_ops` is present and does not include `verify`.
    case operationsExcludeVerify
    /// A published key carries private members (`d`, `p`, `q`, …): the key set leaks its secret.
    case containsPrivateKey
    case invalidBase64URL(member: String, Base64URLError)
    /// `n` or `e` decodes to no bytes at all: no integer is encoded.
    case emptyInteger(member: String)
    /// `n` or `e` starts with a zero octet. RFC 7518 section 6.3.1 requires the minimum number of octets: one
    /// spelling per key, as for every other byte string this library reads.
    case leadingZeroOctet(member: String)
    case key(RSAKeyError)

    public var description: String {
        switch self {
        case .missingMember(let name): return "the JWK has no \"\(name)\""
        case .wrongType(let member, let expected): return "the JWK's \"\(member)\" must be a \(expected)"
        case .notRSA(let keyType): return "the JWK is of type \"\(keyType)\", not RSA"
        case .algorithmMismatch(let alg): return "the JWK is for \"\(alg)\", not RS256"
        case .useMismatch(let use): return "the JWK's use is \"\(use)\", not \"sig\""
        case .operationsExcludeVerify: return "the JWK's key_ops do not include \"verify\""
        case .containsPrivateKey: return "the JWK contains private key material and must not be published"
        case .invalidBase64URL(let member, let error): return "the JWK's \"\(member)\" is not base64url: \(error)"
        case .emptyInteger(let member): return "the JWK's \"\(member)\" is empty; it must encode a positive integer"
        case .leadingZeroOctet(let member):
            return
                "the JWK's \"\(member)\" starts with a zero octet; RFC 7518 section 6.3.1 requires the minimum number of octets (drop the leading zeros)"
        case .key(let error): return "\(error)"
        }
    }
}

/// An RSA public key as a JSON Web Key (RFC 7517, RFC 7518 section 6.3).
public struct RSAJSONWebKey: Sendable, Equatable {
    public var keyID: String
    public var modulus: [UInt8]
    public var exponent: [UInt8]
    /// `alg`, if published.
    public var algorithm: String?
    /// `use`, if published.
    public var use: String?

    /// Describes a public key for publishing, with `alg: RS256` and `use: sig`.
    public init(publicKey: RS256PublicKey, keyID: String) {
        let (modulus, exponent) = publicKey.components()
        self.keyID = keyID
        self.modulus = modulus
        self.exponent = exponent
        self.algorithm = "RS256"
        self.use = "sig"
    }

    private static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth"]

    /// Reads a JWK object, refusing anything that is not an RS256 signature-verification key.
    public init(json members: JSONObject) throws(JWKError) {
        func string(_ name: String) throws(JWKError) -> String? {
            guard let value = members[name] else { return nil }
            guard let string = value.stringValue else { throw .wrongType(member: name, expected: "string") }
            return string
        }
        guard let keyType = try string("kty") else { throw .missingMember("kty") }
        guard keyType == "RSA" else { throw .notRSA(keyType: keyType) }
        if Self.privateMembers.contains(where: { members[$0] != nil }) { throw .containsPrivateKey }
        guard let keyID = try string("kid") else { throw .missingMember("kid") }
        let algorithm = try string("alg")
        if let algorithm, algorithm != "RS256" { throw .algorithmMismatch(algorithm) }
        let use = try string("use")
        if let use, use != "sig" { throw .useMismatch(use) }
        if let operations = members["key_ops"] {
            guard let list = operations.arrayValue else { throw .wrongType(member: "key_ops", expected: "array") }
            if !list.contains(.string("verify")) { throw .operationsExcludeVerify }
        }
        /// A big-endian unsigned integer in its one allowed spelling: base64url of the minimum number of octets.
        func integer(_ name: String) throws(JWKError) -> [UInt8] {
            guard let text = try string(name) else { throw .missingMember(name) }
            let bytes: [UInt8]
            do { bytes = try Base64URL.decode(text) } catch { throw .invalidBase64URL(member: name, error) }
            guard let first = bytes.first else { throw .emptyInteger(member: name) }
            guard first != 0 else { throw .leadingZeroOctet(member: name) }
            return bytes
        }
        self.keyID = keyID
        self.modulus = try integer("n")
        self.exponent = try integer("e")
        self.algorithm = algorithm
        self.use = use
    }

    /// The JWK as JSON.
    public var json: JSONValue {
        var members: JSONObject = [
            "kty": "RSA",
            "kid": .string(keyID),
            "n": .string(Base64URL.encode(modulus)),
            "e": .string(Base64URL.encode(exponent)),
        ]
        if let algorithm { members["alg"] = .string(algorithm) }
        if let use { members["use"] = .string(use) }
        return .object(members)
    }

    /// The key, checked for size.
    public func publicKey() throws(JWKError) -> RS256PublicKey {
        do { return try RS256PublicKey(modulus: modulus, exponent: exponent) } catch { throw .key(error) }
    }
}
