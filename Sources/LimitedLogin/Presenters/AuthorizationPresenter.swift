import Foundation

/// The seam between the SDK and a browser: shows the login dialog and brings back the URL the dialog
/// redirected to.
///
/// ``LoopbackPresenter`` is the one for Linux and command-line apps (the system browser and a loopback
/// redirect, RFC 8252); ``ScriptedPresenter`` plays the person for tests.
public protocol AuthorizationPresenter: Sendable {
    /// Makes ready to receive a login's answer (a listener opened, say) and says where the dialog must
    /// send it.
    func begin(appID: String) async throws(LoginError) -> any AuthorizationAttempt
}

/// One login in progress, ready to receive its answer at ``redirectURI``.
public protocol AuthorizationAttempt: Sendable {
    /// The `redirect_uri` of the dialog request.
    var redirectURI: String { get }
    /// Shows the dialog at `url` and returns the URL it redirected to, with the answer in its fragment
    /// or query. Releases what ``AuthorizationPresenter/begin(appID:)`` opened, whatever happens.
    func present(_ url: URL) async throws(LoginError) -> URL
    /// Releases what was opened when the dialog will not be presented.
    func abandon() async
}
