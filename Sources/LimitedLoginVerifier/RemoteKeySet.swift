import Foundation
import LimitedLoginJOSE
import NIOCore
import Synchronization

/// A key set fetched from a URL and cached.
///
/// - A fetched set is kept as long as its `Cache-Control` says, within ``Policy/minimumLifetime`` and
///   ``Policy/maximumLifetime``.
/// - A token whose `kid` is not in a fresh set causes one refetch, shared by every caller that misses at
///   the same time; after any fetch no other fetch starts for ``Policy/cooldown``, so a flood of tokens
///   with invented `kid`s costs the key server one request.
/// - When a refetch fails (network, status, garbage), the last good set keeps serving, and the next
///   attempt waits for the cool-down.
/// - Redirects are refused, and only https (or http to loopback) is fetched.
public final class RemoteKeySet: KeySetProvider {
    /// How long sets are kept and how often the server may be asked.
    public struct Policy: Sendable, Equatable {
        /// The shortest time a fetched set is kept, whatever the server says.
        public var minimumLifetime: TimeInterval
        /// The longest time a fetched set is kept, whatever the server says.
        public var maximumLifetime: TimeInterval
        /// How long a set is kept when the server sends no `max-age`.
        public var defaultLifetime: TimeInterval
        /// The least time between two fetches that are not due to expiry.
        public var cooldown: TimeInterval
        /// How long one fetch may take.
        public var requestTimeout: TimeInterval
        /// The largest key-set document accepted, in bytes.
        public var maximumDocumentSize: Int

        public init(
            minimumLifetime: TimeInterval = 60,
            maximumLifetime: TimeInterval = 24 * 3600,
            defaultLifetime: TimeInterval = 3600,
            cooldown: TimeInterval = 30,
            requestTimeout: TimeInterval = 10,
            maximumDocumentSize: Int = 512 * 1024
        ) {
            self.minimumLifetime = minimumLifetime
            self.maximumLifetime = max(maximumLifetime, minimumLifetime)
            self.defaultLifetime = defaultLifetime
            self.cooldown = cooldown
            self.requestTimeout = DocumentFetcher.boundedTimeout(requestTimeout)
            self.maximumDocumentSize = maximumDocumentSize
        }
    }

    /// Where the set is fetched from.
    public let url: URL
    public let policy: Policy
    private let clock: any VerifierClock
    private let fetcher: DocumentFetcher
    private let state = Mutex(State())

    private struct State {
        var cached: JSONWebKeySet?
        var expiresAt = Date.distantPast
        /// When the cool-down began: the last refetch for an unknown kid, or the last failed fetch. A
        /// scheduled fetch (the first, or after expiry) that succeeds does not start one, so a key that
        /// appears just after it can still be fetched.
        var cooldownStart: Date?
        var lastFailure: String?
        var inflight: Task<Void, Never>?
        var fetchCount = 0
    }

    private enum Decision {
        case key(RS256PublicKey)
        case failure(KeyResolutionError)
        case wait(Task<Void, Never>)
    }

    public init(url: URL, policy: Policy = Policy(), clock: any VerifierClock = SystemClock()) {
        self.url = url
        self.policy = policy
        self.clock = clock
        self.fetcher = DocumentFetcher(timeoutSeconds: policy.requestTimeout, maximumSize: policy.maximumDocumentSize)
    }

    /// How many fetches have been started, for diagnostics.
    public var fetchCount: Int { state.withLock { $0.fetchCount } }
    /// Why the last fetch failed, nil after one that succeeded (for tests and diagnostics).
    var lastFailure: String? { state.withLock { $0.lastFailure } }

    public func key(for keyID: String) async throws(KeyResolutionError) -> RS256PublicKey {
        switch try decide(keyID, mayFetch: true) {
        case .key(let key): return key
        case .failure(let error): throw error
        case .wait(let task):
            await task.value
            switch try decide(keyID, mayFetch: false) {
            case .key(let key): return key
            case .failure(let error): throw error
            case .wait: throw .keySetUnavailable("internal: a second fetch was requested")
            }
        }
    }

    /// The key from a fresh cache that has `keyID`; nil when the set is missing, expired or lacks the kid
    /// (then ``key(for:)`` fetches or waits, as it decides).
    public func immediateKey(for keyID: String) throws(KeyResolutionError) -> RS256PublicKey? {
        let now = clock.now
        return try state.withLock { state throws(KeyResolutionError) -> RS256PublicKey? in
            guard now < state.expiresAt else { return nil }
            return try state.cached?.resolve(keyID)
        }
    }

    /// Decides under the lock whether the cache answers, or which fetch to wait for.
    private func decide(_ keyID: String, mayFetch: Bool) throws(KeyResolutionError) -> Decision {
        let now = clock.now
        return try state.withLock { state throws(KeyResolutionError) -> Decision in
            let coolingDown = state.cooldownStart.map { now.timeIntervalSince($0) < policy.cooldown } ?? false
            // Read in place (binding the cached set would copy it, and retain and release its storage).
            if state.cached != nil {
                // Expired: refresh first (unless a fetch failed moments ago), whatever the set says of this kid.
                if now >= state.expiresAt, mayFetch {
                    if let task = state.inflight { return .wait(task) }
                    if !coolingDown { return .wait(startFetch(&state, now: now)) }
                }
                // Fresh, or the last good set while the server is failing.
                if let key = try state.cached?.resolve(keyID) { return .key(key) }
                // Unknown kid: one refetch, unless one just happened.
                if mayFetch {
                    if let task = state.inflight { return .wait(task) }
                    if !coolingDown {
                        state.cooldownStart = now
                        return .wait(startFetch(&state, now: now))
                    }
                }
                return .failure(.unknownKey(keyID))
            }
            if mayFetch {
                if let task = state.inflight { return .wait(task) }
                if !coolingDown { return .wait(startFetch(&state, now: now)) }
            }
            return .failure(.keySetUnavailable(state.lastFailure ?? "no key set has been fetched yet"))
        }
    }

    private func startFetch(_ state: inout State, now: Date) -> Task<Void, Never> {
        state.fetchCount += 1
        let task = Task { await self.fetchAndStore() }
        state.inflight = task
        return task
    }

    private func fetchAndStore() async {
        let outcome: Result<(JSONWebKeySet, TimeInterval), FetchError>
        do {
            let document = try await fetcher.fetch(url)
            do {
                let keySet = try JSONWebKeySet(parsing: document.body)
                let lifetime = document.cacheControl.lifetime(
                    floor: policy.minimumLifetime, ceiling: policy.maximumLifetime, fallback: policy.defaultLifetime
                )
                outcome = .success((keySet, lifetime))
            } catch {
                outcome = .failure(.invalidDocument("\(error)"))
            }
        } catch {
            outcome = .failure(error)
        }
        let now = clock.now
        state.withLock { state in
            var outcome = outcome
            // A set with no key a token could be checked with (`{"keys":[]}`, a provider's fault) does not
            // replace one that has: every token would fail until the next fetch. A rotated set holds its new key.
            if case .success(let (keySet, _)) = outcome, !keySet.hasUsableKey, state.cached?.hasUsableKey == true {
                outcome = .failure(.invalidDocument("the key set holds no usable RS256 key; the last good set is kept"))
            }
            switch outcome {
            case .success(let (keySet, lifetime)):
                state.cached = keySet
                state.expiresAt = now.addingTimeInterval(lifetime)
                state.lastFailure = nil
            case .failure(let error):
                state.lastFailure = "\(url.absoluteString): \(error)"
                state.cooldownStart = now
            }
            state.inflight = nil
        }
    }
}
