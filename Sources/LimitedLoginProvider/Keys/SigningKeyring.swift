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
/// Keys live in the store so that they survive restarts and are shared by every node. Rotation (docs/BEHAVIOUR.md,
/// section 4) is a schedule written in the store, so that every node reading it agrees: the new key is
/// published at once and signs from `signsFrom`; the old key stops signing then (`retiredAt`) and stays
/// published for `retention` more seconds (at least the token lifetime), after which it is dropped.
public final class SigningKeyring: Sendable {
    struct Snapshot: Sendable {
        var signer: JWSSigner
        var keySet: JSONWebKeySet
        /// The JWKS document as served, made when the keys are read.
        var keySetDocument: PreparedDocument
        /// The certificate map, made when first asked for (each certificate is an RSA signature: a
        /// millisecond of every start, for an endpoint few clients read).
        var certificates: LazyCertificateMap
        /// The records behind it, for the admin API.
        var records: [SigningKeyRecord]
        /// When it was read (monotonic nanoseconds), and when the schedule next changes (epoch seconds).
        var loadedAt: UInt64
        var nextChange: Int64?
        /// Which read of the store it was made from (``reloads``): a snapshot never replaces one made from a
        /// later read.
        var read: UInt64 = 0
        /// The key ID of the latest rotation when the keys were read (nil before the first rotation).
        var latestRotation: String?
    }

    /// The setting that names the latest rotation's key, written with the rotation (``ClusterSigning``).
    static let latestRotationSetting = "signing_keys_latest_rotation"

    /// How long a retired key stays published: the ID-token lifetime plus a margin for clock skew
    /// (``TokenLifetimes/keyRetention``).
    let retention: Int64
    /// How often a node rereads the keys, to follow rotations made through another node.
    static let refreshInterval: UInt64 = 5_000_000_000

    /// Key sets may be cached for five minutes: less than a rotation's default publish delay
    /// (``RotationDefaults/publishDelay``, 600 s), so that a cache that obeys it and never refetches on an unknown
    /// `kid` holds the next key before it signs. (An hour let such a cache refuse new tokens for 50 minutes.)
    static let keySetCacheControl = "public, max-age=300"

    private let store: ProviderStore
    private let state: Mutex<Snapshot?> = Mutex(nil)
    /// The keys whose public part this process has seen kept in the store (``ProviderStore/keepPublicKey(keyID:jwk:createdAt:)``).
    private let publicKeysKept: Mutex<Set<String>> = Mutex([])
    private let rotations = RotationQueue()
    /// Counts the reads of the keys, so that a reload that read the store before a rotation's statements but
    /// finished after the rotation's own reload cannot put the keys of before the rotation back.
    private let reloads = Atomic<UInt64>(0)
    private let certificateCache: Mutex<[String: String]> = Mutex([:])
    let certificateCommonName: String

    init(store: ProviderStore, certificateCommonName: String, retention: Int64 = TokenLifetimes().keyRetention) {
        self.store = store
        self.retention = retention
        self.certificateCommonName = certificateCommonName
    }

    /// Loads the keys, first making one when the store has none (first start).
    func prepare() async throws -> Snapshot {
        let stored = try await store.signingKeys()
        guard stored.isEmpty else { return try await reload(from: stored) }
        let key = try await Self.generateKey()
        let now = store.now()
        // Only when there is still none: nodes starting together on an empty database make one key between
        // them, not one each that no rotation ever retired.
        try await store.insertFirstSigningKey(
            SigningKeyRecord(
                keyID: Self.makeKeyID(), privateKeyPEM: key.pem, createdAt: now, signsFrom: now, retiredAt: nil
            ))
        return try await reload()
    }

    /// Schedules a rotation: a new key, published now, signing `publishDelay` seconds from now; the
    /// current key retires then. With `dropPrevious` (and no delay), every other key is unpublished at
    /// once, as if its retention had passed: a test of what a backend does with a token whose key is gone.
    /// Returns the new key's record.
    ///
    /// Rotations through this node run one after another (``RotationQueue``); nodes sharing a PostgreSQL
    /// database take turns too (``ProviderStore/storeRotation(_:dropPrevious:)``).
    @discardableResult
    func rotate(publishDelay: Int64, dropPrevious: Bool = false) async throws -> SigningKeyRecord {
        try await rotations.run { try await self.rotateNow(publishDelay: publishDelay, dropPrevious: dropPrevious) }
    }

    private func rotateNow(publishDelay: Int64, dropPrevious: Bool) async throws -> SigningKeyRecord {
        let now = store.now()
        let key = try await Self.generateKey()
        let record = SigningKeyRecord(
            keyID: Self.makeKeyID(), privateKeyPEM: key.pem, createdAt: now, signsFrom: now + max(0, publishDelay), retiredAt: nil
        )
        try await store.storeRotation(record, dropPrevious: dropPrevious)
        try await reload()
        return record
    }

    /// A new 2048-bit key, made off the event loop (``OffEventLoop``): a tenth of a second of CPU.
    static func generateKey() async throws(RSAKeyError) -> RS256PrivateKey {
        try await OffEventLoop.run { () throws(RSAKeyError) -> RS256PrivateKey in try RS256PrivateKey.generate(bits: 2048) }
    }

    /// Reads the keys from the store again, dropping those past their retention.
    ///
    /// The clock that tests move must never leave the provider without a key (issue #30): a key is dropped
    /// only when its retention has passed at ``ProviderTime/settledNow()``, a time the clock cannot be
    /// brought back before without `force` (a key that signed before a clock moved ahead is still there after
    /// a reset); and when no key's schedule covers the clock's time (the clock set back before every key, or
    /// a forced move), the key that signed last signs on (``fallbackSigner``) rather than none.
    /// `stored`: the keys just read from the store, when the caller has them (a start reads them once).
    @discardableResult
    func reload(from stored: [SigningKeyRecord]? = nil) async throws -> Snapshot {
        let read = reloads.add(1, ordering: .sequentiallyConsistent).newValue
        // Before the keys: a rotation committed between the two reads leaves the snapshot looking older than
        // the store, so the next check rereads it (never the other way round).
        let latestRotation = try await store.settingValue(Self.latestRotationSetting)
        let now = store.now()
        let settled = store.settledNow()
        var published: [RSAJSONWebKey] = []
        var certified: [(key: RS256PrivateKey, record: SigningKeyRecord)] = []
        var signer: (JWSSigner, Int64)?
        var kept: [SigningKeyRecord] = []
        var keys: [String: RS256PrivateKey] = [:]
        var nextChange: Int64?
        func note(_ time: Int64) { if time > now { nextChange = min(nextChange ?? time, time) } }
        let records: [SigningKeyRecord]
        if let stored { records = stored } else { records = try await store.signingKeys() }
        for record in records {
            if let retiredAt = record.retiredAt, retiredAt + retention <= settled {
                try await store.deleteSigningKey(keyID: record.keyID)
                continue
            }
            let key: RS256PrivateKey
            do { key = try RS256PrivateKey(pem: record.privateKeyPEM) } catch {
                throw SigningKeyError.unreadable(keyID: record.keyID, error.description)
            }
            kept.append(record)
            keys[record.keyID] = key
            published.append(RSAJSONWebKey(publicKey: key.publicKey, keyID: record.keyID))
            certified.append((key, record))
            note(record.signsFrom)
            if let retiredAt = record.retiredAt {
                note(retiredAt)
                note(retiredAt + retention)
            }
            let signing = record.signsFrom <= now && (record.retiredAt.map { now < $0 } ?? true)
            if signing, record.signsFrom >= (signer?.1 ?? .min) {
                signer = (JWSSigner(privateKey: key, keyID: record.keyID), record.signsFrom)
            }
        }
        await keepPublicParts(of: published, records: kept)
        if signer == nil, let fallback = Self.fallbackSigner(kept, now: now), let key = keys[fallback.keyID] {
            signer = (JWSSigner(privateKey: key, keyID: fallback.keyID), fallback.signsFrom)
        }
        guard let signer else { throw SigningKeyError.noCurrentKey }
        let keySet = JSONWebKeySet(keys: published)
        let snapshot = Snapshot(
            signer: signer.0, keySet: keySet,
            keySetDocument: PreparedDocument(keySet.serialized(), cacheControl: Self.keySetCacheControl),
            certificates: LazyCertificateMap(keys: certified) { [self] key, record in try certificate(for: key, record: record) },
            records: kept,
            loadedAt: DispatchTime.now().uptimeNanoseconds, nextChange: nextChange
        )
        var made = snapshot
        made.read = read
        made.latestRotation = latestRotation
        state.withLock { current in
            // An older read that finished last is not kept (``forgetSnapshot()`` empties the state for any read).
            if let current, current.read > read { return }
            current = made
        }
        return made
    }

    /// Keeps each key's public part in the store once (a store from before it had no such table gets its keys'
    /// at the first start), so that a token a dropped key signed is still known to the OIDC status and
    /// `id_token_hint` (``ReturnedTokenChecker``). One read learns which are kept already, so a start writes
    /// only for a key new to the store. A failure is tried again at the next reload: it must not stop the keys
    /// from loading.
    private func keepPublicParts(of published: [RSAJSONWebKey], records: [SigningKeyRecord]) async {
        var known = publicKeysKept.withLock { $0 }
        if published.contains(where: { !known.contains($0.keyID) }), let stored = try? await store.keptPublicKeyIDs() {
            known.formUnion(stored)
            publicKeysKept.withLock { $0.formUnion(stored) }
        }
        for (key, record) in zip(published, records) where !known.contains(key.keyID) {
            let jwk = String(decoding: JSONSerializer.serialize(key.json), as: UTF8.self)
            guard (try? await store.keepPublicKey(keyID: key.keyID, jwk: jwk, createdAt: record.createdAt)) != nil else { continue }
            _ = publicKeysKept.withLock { $0.insert(key.keyID) }
        }
    }

    /// The key that signs when none is scheduled to at `now`: of the keys whose signing began, the one that
    /// retired last (it signed last); when every key begins later (the clock was set back before them all),
    /// the one that begins first.
    static func fallbackSigner(_ records: [SigningKeyRecord], now: Int64) -> SigningKeyRecord? {
        let begun = records.filter { $0.signsFrom <= now }
        if let last = begun.max(by: { ($0.retiredAt ?? .max, $0.signsFrom) < ($1.retiredAt ?? .max, $1.signsFrom) }) { return last }
        return records.min { $0.signsFrom < $1.signsFrom }
    }

    /// Drops the keys read, so that the next use rereads them: the clock moved, and which key signs may
    /// have changed with it.
    func forgetSnapshot() {
        state.withLock { $0 = nil }
    }

    /// The keys, reread when the last read is older than ``refreshInterval`` or the schedule has moved on.
    func current() async throws -> Snapshot {
        if let snapshot = fresh({ $0 }) { return snapshot }
        return try await reload()
    }

    /// The published key set as served, from the current keys (read in place: copying the whole snapshot
    /// for one of its fields cost a dozen reference counts per request).
    func keySetDocument() async throws -> PreparedDocument {
        if let document = fresh({ $0?.keySetDocument }) { return document }
        return try await reload().keySetDocument
    }

    /// The certificate map as served, from the current keys.
    func certificatesDocument() async throws -> PreparedDocument {
        if let certificates = fresh({ $0?.certificates }) { return try certificates.document() }
        return try await reload().certificates.document()
    }

    /// `read` of the snapshot when it is fresh (see ``current()``), under the lock; nil when it must be reread.
    private func fresh<Value>(_ read: (inout Snapshot?) -> Value?) -> Value? {
        let uptime = DispatchTime.now().uptimeNanoseconds
        let now = store.now()
        return state.withLock { snapshot -> Value? in
            // Read through optional chaining, in place: binding the snapshot would copy it.
            guard let loadedAt = snapshot?.loadedAt, uptime &- loadedAt < Self.refreshInterval else { return nil }
            if let nextChange = snapshot?.nextChange, now >= nextChange { return nil }
            return read(&snapshot)
        }
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

/// A snapshot's certificate map (`/.well-known/oauth/openid/certs/`), made on first use and kept: a
/// self-signed certificate per published key (the keyring caches each by key ID, so a reread of the same
/// keys makes none again).
final class LazyCertificateMap: Sendable {
    private let keys: [(key: RS256PrivateKey, record: SigningKeyRecord)]
    private let certificate: @Sendable (RS256PrivateKey, SigningKeyRecord) throws -> String
    private let made: Mutex<PreparedDocument?> = Mutex(nil)

    init(
        keys: [(key: RS256PrivateKey, record: SigningKeyRecord)],
        certificate: @escaping @Sendable (RS256PrivateKey, SigningKeyRecord) throws -> String
    ) {
        self.keys = keys
        self.certificate = certificate
    }

    /// The document as served.
    func document() throws -> PreparedDocument {
        if let document = made.withLock({ $0 }) { return document }
        var certificates: [String: String] = [:]
        for (key, record) in keys { certificates[record.keyID] = try certificate(key, record) }
        let document = PreparedDocument(CertificateMap.document(certificates), cacheControl: SigningKeyring.keySetCacheControl)
        made.withLock { $0 = document }
        return document
    }
}
