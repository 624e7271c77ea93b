import Foundation
import LimitedLoginCore
import Logging
import Synchronization

/// The signed-in state of an app: the current access token, authentication token and profile.
///
/// `AccessToken.current`, `AuthenticationToken.current` and `Profile.current` read and write
/// ``shared``; an app (or a test) that wants its own state makes its own session with its own
/// ``TokenStore`` and gives it to its ``LoginManager``. The values are read from the store on first use,
/// every change is saved before it is announced, and every change is announced twice: to each
/// ``changes()`` stream, in order, and as a `NotificationCenter` notification carrying old and new.
public final class LoginSession: Sendable {
    /// The process's session, saved in ``FileTokenStore/default``.
    public static let shared = LoginSession(store: FileTokenStore.default)

    /// Where the values are saved; nil keeps them in memory only.
    public let store: (any TokenStore)?
    /// Where notifications are posted.
    public let notificationCenter: NotificationCenter

    private struct State {
        var loaded = false
        var snapshot = SessionSnapshot()
        var loadError: TokenStoreError?
        var streams: [UInt64: AsyncStream<SessionChange>.Continuation] = [:]
        var nextStreamID: UInt64 = 0
    }

    private let state = Mutex(State())
    private static let logger = Logger(label: "limited-login.session")

    public init(store: (any TokenStore)?, notificationCenter: NotificationCenter = .default) {
        self.store = store
        self.notificationCenter = notificationCenter
    }

    /// The current values, read from the store on first use.
    public var snapshot: SessionSnapshot {
        state.withLock { state in
            loadIfNeeded(&state)
            return state.snapshot
        }
    }

    /// Why the saved values could not be read at first use, if they could not (the session then starts
    /// signed out rather than failing).
    public var loadError: TokenStoreError? {
        state.withLock { state in
            loadIfNeeded(&state)
            return state.loadError
        }
    }

    public var accessToken: AccessToken? { snapshot.accessToken }
    public var authenticationToken: AuthenticationToken? { snapshot.authenticationToken }
    public var profile: Profile? { snapshot.profile }

    /// Replaces the values that `change` alters, saves them, then announces each value that changed.
    /// When saving fails nothing changes and the error is thrown.
    public func update(_ change: (inout SessionSnapshot) -> Void) throws(TokenStoreError) {
        try apply(change, keepingValuesWhenSaveFails: true)
    }

    /// ``update(_:)``; with `keepingValuesWhenSaveFails` false the values change in memory (and are
    /// announced) even when saving them fails, and the save's error is thrown after.
    private func apply(_ change: (inout SessionSnapshot) -> Void, keepingValuesWhenSaveFails: Bool) throws(TokenStoreError) {
        var saveError: TokenStoreError?
        let changes: [SessionChange] = try state.withLock { (state: inout State) throws(TokenStoreError) -> [SessionChange] in
            loadIfNeeded(&state)
            var next = state.snapshot
            change(&next)
            guard next != state.snapshot else { return [] }
            do throws(TokenStoreError) { try store?.save(next) } catch {
                if keepingValuesWhenSaveFails { throw error }
                saveError = error
            }
            let old = state.snapshot
            state.snapshot = next
            var changes: [SessionChange] = []
            if old.accessToken != next.accessToken { changes.append(.accessToken(old: old.accessToken, new: next.accessToken)) }
            if old.authenticationToken != next.authenticationToken {
                changes.append(.authenticationToken(old: old.authenticationToken, new: next.authenticationToken))
            }
            if old.profile != next.profile { changes.append(.profile(old: old.profile, new: next.profile)) }
            // Yielded under the lock so that every stream sees the changes in the order they were made.
            for change in changes {
                for continuation in state.streams.values { continuation.yield(change) }
            }
            return changes
        }
        for change in changes {
            notificationCenter.post(name: change.notificationName, object: self, userInfo: change.userInfo)
            if case .accessToken(_, let new?) = change { announceExpiry(of: new) }
        }
        if let saveError { throw saveError }
    }

    /// Posts `AccessTokenDidChange` with ``AccessTokenDidExpireKey`` when `token` expires while it is
    /// still the current one, as the iOS SDK's expirer does.
    private func announceExpiry(of token: AccessToken) {
        Task { [weak self] in
            let delay = token.expirationDate.timeIntervalSinceNow
            if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
            guard let self, self.accessToken == token else { return }
            self.notificationCenter.post(
                name: .AccessTokenDidChange, object: self,
                userInfo: [AccessTokenChangeOldKey: token, AccessTokenChangeNewKey: token, AccessTokenDidExpireKey: true]
            )
        }
    }

    /// Sets one value the way a property setter does: a failure to save is logged, and the value is
    /// not changed.
    func set(_ change: (inout SessionSnapshot) -> Void) {
        do { try update(change) } catch {
            Self.logger.error("the login was not changed", metadata: ["reason": "\(error.description)"])
        }
    }

    /// Signs out: clears the three values in memory and on disk. The values are cleared in memory even when
    /// the saved file cannot be changed (signing out never leaves the person signed in); that failure is
    /// thrown after.
    public func clear() throws(TokenStoreError) {
        try apply({ $0 = SessionSnapshot() }, keepingValuesWhenSaveFails: false)
        // Also removes a saved file that could not be read, which the session never loaded.
        try store?.save(SessionSnapshot())
    }

    /// Every change from now on, in order, until the stream is dropped.
    public func changes() -> AsyncStream<SessionChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionChange.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            state.nextStreamID += 1
            state.streams[state.nextStreamID] = continuation
            return state.nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    private func loadIfNeeded(_ state: inout State) {
        guard !state.loaded else { return }
        state.loaded = true
        do {
            state.snapshot = try store?.load() ?? SessionSnapshot()
        } catch {
            state.loadError = error
            Self.logger.warning("starting signed out", metadata: ["reason": "\(error.description)"])
        }
    }
}
