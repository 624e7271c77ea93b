import LimitedLoginJOSE

/// Why no key could be found for a `kid`.
public enum KeyResolutionError: Error, Equatable, Sendable {
    case unknownKey(String)
    case unusableKey(keyID: String, JWKError)
    case ambiguousKey(String)
    case keySetUnavailable(String)
}

/// Supplies the verification key for a `kid`.
public protocol KeySetProvider: Sendable {
    func key(for keyID: String) async throws(KeyResolutionError) -> RS256PublicKey

    /// The key for `keyID` when it can be had at once (a fresh cache that has it); nil when only
    /// ``key(for:)`` can tell, by waiting. Throws only what ``key(for:)`` would throw for the same state.
    /// A verifier asks this first, so the common case costs no suspension point.
    func immediateKey(for keyID: String) throws(KeyResolutionError) -> RS256PublicKey?
}

extension KeySetProvider {
    /// By default every answer goes through ``key(for:)``.
    public func immediateKey(for keyID: String) throws(KeyResolutionError) -> RS256PublicKey? { nil }
}

extension JSONWebKeySet {
    /// The key for `keyID`, or the precise reason there is none.
    func resolve(_ keyID: String) throws(KeyResolutionError) -> RS256PublicKey? {
        switch lookup(keyID) {
        case .found(let key): return key
        case .unusable(let error): throw .unusableKey(keyID: keyID, error)
        case .ambiguous: throw .ambiguousKey(keyID)
        case .missing: return nil
        }
    }
}

/// A key set given up front, for tokens whose keys the caller already holds (a provider checking its
/// own tokens, or a key set loaded from a file).
public struct StaticKeySet: KeySetProvider {
    public let keySet: JSONWebKeySet

    public init(_ keySet: JSONWebKeySet) {
        self.keySet = keySet
    }

    public func key(for keyID: String) async throws(KeyResolutionError) -> RS256PublicKey {
        try resolved(keyID)
    }

    /// Always answers: the set is all there is.
    public func immediateKey(for keyID: String) throws(KeyResolutionError) -> RS256PublicKey? {
        try resolved(keyID)
    }

    private func resolved(_ keyID: String) throws(KeyResolutionError) -> RS256PublicKey {
        guard let key = try keySet.resolve(keyID) else { throw .unknownKey(keyID) }
        return key
    }
}
