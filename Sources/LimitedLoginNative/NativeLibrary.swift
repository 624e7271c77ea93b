import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import Synchronization

/// The process-wide state behind the C entry points (the Unity SDK's native side is one shared instance
/// too): the setup, who plays the person, the login manager made from them, and the result callback.
///
/// Every method returns without waiting on the network or the person: a login runs in a `Task`, and its
/// result goes to the callback. The SDK does the work; this type only holds what the C calls set.
final class NativeLibrary: Sendable {
    static let shared = NativeLibrary()

    private struct State {
        var setup: NativeSetup?
        var person: NativePerson = .systemBrowser
        /// Made from ``setup`` and ``person`` at the first login after either changed, then kept, so
        /// that its verifier (and key cache) and a scripted person's cookies last from login to login.
        var manager: LoginManager?
    }

    private let state = Mutex(State())
    /// The result callback: kept apart from ``State``, as replacing it waits for a call in progress.
    private let results = ResultCallbackSlot()

    /// `LLFBInit`: replaces the setup. Given the same state file again, it keeps that file's session: a
    /// login still running saves into the session the current-value calls read (two sessions on one file
    /// would each cache what they last saw).
    func initialize(_ setup: NativeSetup) {
        state.withLock { state in
            var setup = setup
            if let previous = state.setup, previous.stateFile == setup.stateFile { setup.session = previous.session }
            state.setup = setup
            state.manager = nil
        }
    }

    /// `LLFBSetResultCallback`.
    func setCallback(_ callback: ResultCallback?) {
        results.replace(with: callback)
    }

    /// `LLFBUseScriptedPerson` and `LLFBUseSystemBrowser`.
    func use(_ person: NativePerson) {
        state.withLock { state in
            state.person = person
            state.manager = nil
        }
    }

    /// `LLFBLoginWithTrackingPreference`: starts the login and returns; the result is delivered to the
    /// callback registered when it is reached. Throws when the login cannot start.
    func startLogin(_ requestID: Int32, configuration: LoginConfiguration) throws(NativeError) {
        let manager = try state.withLock { (state: inout State) throws(NativeError) -> LoginManager in
            guard let setup = state.setup else { throw .notInitialized }
            guard results.isSet else { throw .noCallback }
            if let manager = state.manager { return manager }
            let manager = LoginManager(
                appID: setup.appID, endpoints: setup.endpoints, presenter: state.person.makePresenter(), session: setup.session
            )
            state.manager = manager
            return manager
        }
        Task {
            let result: JSONValue
            do throws(LoginError) {
                let outcome = try await manager.logIn(configuration: configuration)
                result = outcome.isCancelled ? UnityLoginResult.cancelled(requestID) : UnityLoginResult.succeeded(requestID, outcome)
            } catch {
                result = UnityLoginResult.failed(requestID, NativeError(error))
            }
            self.results.deliver(requestID, result)
        }
    }

    /// `LLFBLogOut`: clears the session's values, in memory and on disk.
    func logOut() throws(NativeError) {
        let session = try currentSession()
        do throws(TokenStoreError) { try session.clear() } catch { throw NativeError(error) }
    }

    /// `LLFBCurrentAuthenticationToken`.
    func currentAuthenticationToken() throws(NativeError) -> AuthenticationToken? {
        try currentSession().authenticationToken
    }

    /// `LLFBCurrentAccessToken`.
    func currentAccessToken() throws(NativeError) -> AccessToken? {
        try currentSession().accessToken
    }

    /// `LLFBCurrentProfile`.
    func currentProfile() throws(NativeError) -> Profile? {
        try currentSession().profile
    }

    private func currentSession() throws(NativeError) -> LoginSession {
        guard let setup = state.withLock({ $0.setup }) else { throw .notInitialized }
        return setup.session
    }
}
