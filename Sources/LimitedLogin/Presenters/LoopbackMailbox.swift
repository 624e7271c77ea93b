import Foundation
import LimitedLoginCore
import Synchronization

/// Where the loopback listener puts the login's answer, and where ``LoopbackPresenter`` waits for it.
/// The first answer wins; later requests get a page saying the login is over.
final class LoopbackMailbox: Sendable {
    struct Reply: Sendable {
        var status: Int
        var html: String
        /// The nonce the page's one script carries, for its Content-Security-Policy.
        var scriptNonce: String? = nil
        /// True for the page that answers the request which delivered the login's answer.
        var deliversAnswer = false
    }

    private struct State {
        var port = 0
        var expectedState: String?
        var answer: URL?
        var failure: LoginError?
        var waiter: CheckedContinuation<URL, any Error>?
        var answerPageWritten = false
    }

    let callbackPath: String
    private let state = Mutex(State())

    init(callbackPath: String) {
        self.callbackPath = callbackPath
    }

    /// The listener's port, set once it is bound.
    var port: Int {
        get { state.withLock { $0.port } }
        set { state.withLock { $0.port = newValue } }
    }

    /// The `state` the login's dialog was sent with: an answer carrying another one (or none) is refused and
    /// does not end the login. Nil: not checked here (the login manager checks it in any case).
    var expectedState: String? {
        get { state.withLock { $0.expectedState } }
        set { state.withLock { $0.expectedState = newValue } }
    }

    static let foreignAnswer =
        "This answer is not for the login in progress (its state does not match), so it was ignored. The login goes on in the dialog."

    /// Answers one request the browser made to the listener.
    func handle(method: String, uri: String) -> Reply {
        guard method == "GET" || method == "HEAD" else {
            return Reply(status: 405, html: LoopbackPages.message(title: "Not allowed", text: "Only GET reaches this address."))
        }
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? uri
        guard path == callbackPath else {
            return Reply(status: 404, html: LoopbackPages.message(title: "Not found", text: "Nothing is here."))
        }
        let query = uri.firstIndex(of: "?").map { uri[uri.index(after: $0)...] } ?? ""
        if query.isEmpty {
            // The answer is in the fragment, which the browser keeps to itself: a page moves it to the query.
            let nonce = UUID().uuidString
            return Reply(status: 200, html: LoopbackPages.relay(scriptNonce: nonce), scriptNonce: nonce)
        }
        if let expected = expectedState {
            let given = (try? FormParameters(encoded: String(query)))?.all("state")
            guard given == [expected] else {
                return Reply(status: 400, html: LoopbackPages.message(title: "Not this login's answer", text: Self.foreignAnswer))
            }
        }
        let delivered = state.withLock { state -> Bool in
            guard state.answer == nil, state.failure == nil, let url = URL(string: "http://127.0.0.1:\(state.port)\(uri)") else { return false }
            state.answer = url
            state.waiter?.resume(returning: url)
            state.waiter = nil
            return true
        }
        guard delivered else {
            return Reply(
                status: 409, html: LoopbackPages.message(title: "Login already finished", text: "This login has already received its answer."))
        }
        // A cancel or an error carries `error`: say so, the app tells the person the details.
        let failed = query.split(separator: "&").contains { $0.hasPrefix("error=") }
        return failed
            ? Reply(
                status: 200,
                html: LoopbackPages.message(
                    title: "Login not completed", text: "The login was cancelled or failed. You can close this window and return to the app."),
                deliversAnswer: true)
            : Reply(
                status: 200, html: LoopbackPages.message(title: "Login finished", text: "You can close this window and return to the app."),
                deliversAnswer: true)
    }

    /// The listener wrote the page that answers the delivering request.
    func answerPageSent() {
        state.withLock { $0.answerPageWritten = true }
    }

    /// Waits, at most `limit`, until the browser has been sent the page for the answer: an app that ends as
    /// soon as it has the answer (a cancel needs no further work) would otherwise take the page down with it,
    /// and the person would see the browser's connection error instead of "Login not completed".
    func waitForAnswerPage(within limit: Duration = .seconds(2)) async {
        let deadline = ContinuousClock.now + limit
        while !state.withLock({ $0.answerPageWritten }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits for the answer.
    func wait() async throws -> URL {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                state.withLock { state in
                    if let answer = state.answer {
                        continuation.resume(returning: answer)
                    } else if let failure = state.failure {
                        continuation.resume(throwing: failure)
                    } else {
                        state.waiter = continuation
                    }
                }
            }
        } onCancel: {
            fail(.presentationFailed("the login was cancelled by the app"))
        }
    }

    /// Ends the wait with an error, unless an answer came first.
    func fail(_ error: LoginError) {
        state.withLock { state in
            guard state.answer == nil, state.failure == nil else { return }
            state.failure = error
            state.waiter?.resume(throwing: error)
            state.waiter = nil
        }
    }
}
