import Foundation
import Synchronization

/// A small in-memory cache in front of the store for values read on every dialog request.
///
/// Entries live `lifetime` seconds (forever when nil, for values that never change once made, such as
/// app-scoped IDs). This node's own writes invalidate at once; another node's writes to a shared database
/// show up here within `lifetime`. A cache whose values could be wrong for longer than that on a shared
/// database is off there (`enabled` false: every read goes to the database). Edits that read a record to
/// write it back read it from the database (`fresh`), so a value cached here never overwrites another
/// node's change. The cache is emptied when it reaches `capacity` entries, so memory stays bounded without
/// bookkeeping on the hot path.
final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var expires: UInt64?
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let lifetime: Duration?
    private let capacity: Int
    /// False: nothing is kept (a shared database, where other nodes write).
    private let enabled: Bool

    init(lifetime: Duration?, capacity: Int = 10_000, enabled: Bool = true) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.enabled = enabled
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    func value(for key: Key) -> Value? {
        guard enabled else { return nil }
        let now = Self.now()
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            if let expires = entry.expires, expires <= now {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    func store(_ value: Value, for key: Key) {
        guard enabled else { return }
        let expires = lifetime.map { lifetime -> UInt64 in
            let (seconds, attoseconds) = lifetime.components
            return Self.now() + UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, expires: expires)
        }
    }

    func remove(_ key: Key) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

/// The caches of a ``ProviderStore``.
final class StoreCaches: Sendable {
    /// True when this process is the database's only user (the SQLite store holds an exclusive lock), so
    /// that invalidating on its own writes keeps every cached value exact.
    let isSoleWriter: Bool

    init(isSoleWriter: Bool) {
        self.isSoleWriter = isSoleWriter
        // Apps, users and sessions: at most `referenceLifetime` old on a shared database (docs/PROVIDER.md says
        // so; without them two PostgreSQL nodes served 40 % fewer tokens, docs/PERFORMANCE.md "nodes").
        apps = ReadCache(lifetime: Self.referenceLifetime)
        users = ReadCache(lifetime: Self.referenceLifetime)
        sessions = ReadCache(lifetime: Self.referenceLifetime)
        // Kept forever, so only where nobody else writes: a reset and import through another node makes them anew.
        appScopedIDs = ReadCache(lifetime: nil, enabled: isSoleWriter)
    }

    /// Bumped after every write that can change a grant or a friends list (grants, friendships, new
    /// app-scoped IDs). A cached grant is used only while the generation it was read at is current.
    let grantGeneration = Atomic<UInt64>(0)

    /// "appID userID" → the grant and visible friends, with the generation they were read at.
    let grants = ReadCache<String, GrantSnapshot>(lifetime: nil)

    struct GrantSnapshot: Sendable {
        var grant: GrantRecord?
        var friendASIDs: [String]
        var generation: UInt64
    }

    func grantsChanged() {
        grantGeneration.add(1, ordering: .sequentiallyConsistent)
    }

    /// The last time this node recorded as the used forms' horizon (``ProviderStore/purgeUsedFormTokens(settled:)``).
    let usedFormsHorizon = Atomic<Int64>(0)

    /// How long apps, users and sessions read from the store are reused by this node.
    static let referenceLifetime: Duration = .seconds(2)

    let apps: ReadCache<String, AppRecord>
    let users: ReadCache<String, TestUserRecord>
    /// Session hash → (user ID, expiry in epoch seconds).
    let sessions: ReadCache<String, SessionEntry>
    /// "appID userID" → ASID: never changes once made (but a reset and import through another node makes it
    /// anew, so it is not kept on a shared database).
    let appScopedIDs: ReadCache<String, String>

    /// When expired sessions and authorization codes were last purged.
    let expiryPurge = ExpiryPurgeSchedule()

    struct SessionEntry: Sendable {
        var userID: String
        var expiresAt: Int64
    }
}
