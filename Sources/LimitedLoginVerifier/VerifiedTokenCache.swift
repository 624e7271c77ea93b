import Crypto
import LimitedLoginJOSE
import Synchronization

/// Tokens that passed every check, keyed by their exact bytes, with the key their signature was checked with.
///
/// See ``VerifiedTokenCacheLimits`` for what a remembered token skips and what is checked again. Only
/// tokens that verified are remembered, so nobody without a signing key can fill the cache or crowd a
/// bucket; it is bounded in entries and in estimated bytes anyway, and forgets the oldest first.
///
/// A token is remembered the second time it verifies, not the first: most tokens a server sees once (a
/// login), and keeping each of those would cost every verification an entry made and later dropped (about
/// 0.03 of the `verify` benchmark's ratio, measured with 256 tokens in turn). Which tokens were seen once
/// is a fixed table of their summaries (8 bytes each, no allocation), so a token seen again is known
/// unless another token took its slot since; then it waits for one more sighting.
final class VerifiedTokenCache: Sendable {
    /// What a lookup found.
    enum Lookup {
        /// The token verified before and is remembered.
        case hit(Entry)
        /// Not remembered; `admit` when it was seen before, so that it should be remembered if it verifies.
        case miss(admit: Bool)
    }

    struct Entry: Sendable {
        let token: VerifiedIDToken
        /// ``RS256PublicKey/fingerprint`` of the key that checked the signature.
        let keyFingerprint: SHA256Digest
        /// The estimated bytes this entry holds.
        let cost: Int
        /// Tells this entry from a later one for the same bucket in the eviction order.
        let serial: UInt64
    }

    private struct State {
        /// One entry per bucket: a second verified token with the same summary replaces the first (both
        /// are found only by comparing all their bytes, so a replaced one is just a miss).
        var entries: [UInt64: Entry] = [:]
        /// Buckets in the order their entries were remembered, oldest from `head`; items whose serial no
        /// longer matches the bucket's entry are stale and skipped.
        var order: [(bucket: UInt64, serial: UInt64)] = []
        var head = 0
        var bytes = 0
        var nextSerial: UInt64 = 0
        /// Summaries of tokens seen and not remembered, by their low bits (empty until the first lookup).
        var seen: [UInt64] = []
    }

    let limits: VerifiedTokenCacheLimits
    private let state = Mutex(State())

    init(limits: VerifiedTokenCacheLimits) {
        self.limits = limits
    }

    /// The entry for exactly these bytes, if any.
    func entry(for token: String) -> Entry? {
        if case .hit(let entry) = lookup(token, noting: false) { return entry }
        return nil
    }

    /// The entry for exactly these bytes, or whether to remember them if they verify; notes the sighting.
    func lookup(_ token: String) -> Lookup { lookup(token, noting: true) }

    private func lookup(_ token: String, noting: Bool) -> Lookup {
        var token = token
        return token.withUTF8 { bytes -> Lookup in
            let raw = UnsafeRawBufferPointer(bytes)
            let bucket = Self.bucket(of: raw)
            let slots = Self.seenSlots(for: limits)
            let (found, seenBefore) = state.withLock { state -> (Entry?, Bool) in
                if let entry = state.entries[bucket] { return (entry, false) }
                guard noting else { return (nil, false) }
                if state.seen.isEmpty { state.seen = [UInt64](repeating: 0, count: slots) }
                let slot = Int(truncatingIfNeeded: bucket) & (slots - 1)
                if state.seen[slot] == bucket { return (nil, true) }
                state.seen[slot] = bucket
                return (nil, false)
            }
            guard let entry = found else { return .miss(admit: seenBefore) }
            var remembered = entry.token.tokenString
            let same = remembered.withUTF8 { rememberedBytes in
                rememberedBytes.count == bytes.count
                    && JSONDocument.bytesEqual(UnsafeRawBufferPointer(rememberedBytes), at: 0, raw)
            }
            // Another token in the same bucket: remember this one (in its place) if it was seen before.
            return same ? .hit(entry) : .miss(admit: noting)
        }
    }

    /// Slots of the seen-once table: a power of two, twice the entries, between 64 and 65,536 (512 KiB).
    static func seenSlots(for limits: VerifiedTokenCacheLimits) -> Int {
        var slots = 64
        while slots < 2 * limits.maximumEntries, slots < 65_536 { slots *= 2 }
        return slots
    }

    /// Remembers a token that passed every check, with the fingerprint of the key that checked it.
    func remember(_ token: VerifiedIDToken, keyFingerprint: SHA256Digest) {
        var text = token.tokenString
        let length = text.utf8.count
        let cost = Self.estimatedCost(tokenLength: length)
        guard limits.isEnabled, cost <= limits.maximumBytes else { return }
        let bucket = text.withUTF8 { Self.bucket(of: UnsafeRawBufferPointer($0)) }
        state.withLock { state in
            if let existing = state.entries.removeValue(forKey: bucket) { state.bytes -= existing.cost }
            while state.entries.count >= limits.maximumEntries || state.bytes + cost > limits.maximumBytes {
                guard Self.evictOldest(&state) else { break }
            }
            let serial = state.nextSerial
            state.nextSerial &+= 1
            state.entries[bucket] = Entry(token: token, keyFingerprint: keyFingerprint, cost: cost, serial: serial)
            state.bytes += cost
            state.order.append((bucket, serial))
            Self.compactOrder(&state, limit: limits.maximumEntries)
        }
    }

    /// Forgets the entry for these bytes (its key left the key set, or it expired).
    func forget(_ entry: Entry) {
        var text = entry.token.tokenString
        let bucket = text.withUTF8 { Self.bucket(of: UnsafeRawBufferPointer($0)) }
        state.withLock { state in
            guard let current = state.entries[bucket], current.serial == entry.serial else { return }
            state.entries[bucket] = nil
            state.bytes -= current.cost
        }
    }

    /// How many tokens are remembered, for tests.
    var count: Int { state.withLock { $0.entries.count } }
    /// The estimated bytes they hold, for tests.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The token, its decoded payload (three quarters of it), the payload's index (24 bytes an entry, an
    /// entry per 8 bytes), the signature and the entry itself, rounded up.
    static func estimatedCost(tokenLength: Int) -> Int { 4 * tokenLength + 1024 }

    /// A summary of the token's bytes for the bucket: its length and its last 32 bytes, which lie in the
    /// signature (different for any two tokens a key signed). Equal summaries are told apart by comparing
    /// every byte.
    static func bucket(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var summary = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        if bytes.count >= 32 {
            for word in 1...4 {
                let value = bytes.loadUnaligned(fromByteOffset: bytes.count - 8 * word, as: UInt64.self)
                summary = (summary ^ value) &* 0xFF51_AFD7_ED55_8CCD
                summary ^= summary >> 31
            }
        } else {
            for byte in bytes { summary = (summary ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        return summary
    }

    /// Drops the oldest live entry; false when there is none.
    private static func evictOldest(_ state: inout State) -> Bool {
        while state.head < state.order.count {
            let (bucket, serial) = state.order[state.head]
            state.head += 1
            if let entry = state.entries[bucket], entry.serial == serial {
                state.entries[bucket] = nil
                state.bytes -= entry.cost
                return true
            }
        }
        return false
    }

    /// Keeps the eviction order from growing with stale items (entries replaced or forgotten).
    private static func compactOrder(_ state: inout State, limit: Int) {
        let live = state.order.count - state.head
        guard state.head > 1024 || live > 2 * limit + 64 else { return }
        let entries = state.entries
        state.order = state.order[state.head...].filter { entries[$0.bucket]?.serial == $0.serial }
        state.head = 0
    }
}
