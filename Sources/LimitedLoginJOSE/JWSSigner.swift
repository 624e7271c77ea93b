/// Produces compact JWS tokens signed with RS256.
public struct JWSSigner: Sendable {
    /// The signing key.
    public let privateKey: RS256PrivateKey
    /// The `kid` written in every header.
    public let keyID: String
    /// The base64url header, the same for every token of this key.
    private let encodedHeader: String

    public init(privateKey: RS256PrivateKey, keyID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        let header: JSONObject = ["alg": "RS256", "typ": "JWT", "kid": .string(keyID)]
        self.encodedHeader = Base64URL.encode(JSONSerializer.serialize(.object(header)))
    }

    /// Signs `claims` as a JWT with header `{"alg":"RS256","kid":…,"typ":"JWT"}`.
    public func sign(claims: JSONObject) throws(RSAKeyError) -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(JSONSerializer.serialize(.object(claims)))
        let signature = try privateKey.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Signs arbitrary header and payload bytes exactly as given (tests use this to build hostile tokens).
    public func sign(headerBytes: [UInt8], payloadBytes: [UInt8]) throws(RSAKeyError) -> String {
        let signingInput = Base64URL.encode(headerBytes) + "." + Base64URL.encode(payloadBytes)
        let signature = try privateKey.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}
