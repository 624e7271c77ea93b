import LimitedLoginJOSE

/// RSA keys generated once per test process (generation is the slow part of these tests).
public enum TestKeys {
    public static let primary = generate()
    public static let secondary = generate()

    private static func generate() -> RS256PrivateKey {
        do {
            return try RS256PrivateKey.generate(bits: 2048)
        } catch {
            fatalError("cannot generate a test RSA key: \(error)")
        }
    }

    /// A key set publishing the given keys under the given `kid`s.
    public static func keySet(_ keys: [(String, RS256PrivateKey)]) -> JSONWebKeySet {
        JSONWebKeySet(keys: keys.map { RSAJSONWebKey(publicKey: $0.1.publicKey, keyID: $0.0) })
    }
}
