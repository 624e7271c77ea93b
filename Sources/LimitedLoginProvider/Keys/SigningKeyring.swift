import Foundation
import LimitedLoginJOSE
import Synchronization

/// Why the provider has no usable signing key.
public enum SigningKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(keyID: String, String)
    case noCurrentKey

    public var description: String {
        switch self {
        case .unreadable(let keyID, let reason): return "signing key \(keyID) in the store is unreadable: \(reason)"
        case .noCurrentKey: return "the store holds no signing key that may sign now"
        }
    }
}

/// The provider's signing keys, read from the store: the one that signs, and every one that is
/// published (JWKS and certificates).
///
/// Keys live in the store so that they survive restarts and are shared by every node.
public final class SigningKeyring: Sendable {
    struct Snapshot: Sendable {
        var signer: JWSSigner
        var keySet: JSONWebKeySet
        var certificates: [String: String]
    }

    private let store: ProviderStore
    private let state: Mutex<Snapshot?> = Mutex(nil)
    private let certificateCache: Mutex<[String: String]> = Mutex([:])
    let certificateCommonName: String

    init(store: ProviderStore, certificateCommonName: String) {
        self.store = store
        self.certificateCommonName = certificateCommonName
    }

    /// Loads the keys, first making one when the store has none (first start).
    func prepare() async throws -> Snapshot {
        if try await store.signingKeys().isEmpty {
            let key = try RS256PrivateKey.generate(bits: 2048)
            let now = ProviderTime.now()
            try await store.insertSigningKey(SigningKeyRecord(
                keyID: Self.makeKeyID(), privateKeyPEM: key.pem, createdAt: now, signsFrom: now, retiredAt: nil
            ))
        }
        return try await reload()
    }

    /// Reads the keys from the store again.
    @discardableResult
    func reload() async throws -> Snapshot {
        let records = try await store.signingKeys()
        let now = ProviderTime.now()
        var published: [RSAJSONWebKey] = []
        var certificates: [String: String] = [:]
        var signer: JWSSigner?
        for record in records {
            let key: RS256PrivateKey
            do { key = try RS256PrivateKey(pem: record.privateKeyPEM) } catch {
                throw SigningKeyError.unreadable(keyID: record.keyID, error.description)
            }
            published.append(RSAJSONWebKey(publicKey: key.publicKey, keyID: record.keyID))
            certificates[record.keyID] = try certificate(for: key, record: record)
            if record.retiredAt == nil, record.signsFrom <= now {
                signer = JWSSigner(privateKey: key, keyID: record.keyID)
            }
        }
        guard let signer else { throw SigningKeyError.noCurrentKey }
        let snapshot = Snapshot(signer: signer, keySet: JSONWebKeySet(keys: published), certificates: certificates)
        state.withLock { $0 = snapshot }
        return snapshot
    }

    /// The keys as last loaded.
    func current() async throws -> Snapshot {
        if let snapshot = state.withLock({ $0 }) { return snapshot }
        return try await reload()
    }

    private func certificate(for key: RS256PrivateKey, record: SigningKeyRecord) throws -> String {
        if let cached = certificateCache.withLock({ $0[record.keyID] }) { return cached }
        let pem = try CertificateMap.selfSignedCertificatePEM(
            for: key, commonName: certificateCommonName,
            notBefore: Date(timeIntervalSince1970: TimeInterval(record.createdAt))
        )
        certificateCache.withLock { $0[record.keyID] = pem }
        return pem
    }

    /// A 40-character hex key ID, the shape of the real service's.
    static func makeKeyID() -> String {
        var generator = SystemRandomNumberGenerator()
        return RandomIdentifiers.hex((0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
