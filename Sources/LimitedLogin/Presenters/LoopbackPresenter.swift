import Foundation

/// Shows the dialog in the system browser and receives the answer on a loopback redirect (RFC 8252):
/// a listener on 127.0.0.1 at a port the system picks, `redirect_uri=http://127.0.0.1:{port}/callback`.
///
/// The dialog answers in the fragment, which a browser never sends; the listener's first page moves it
/// into the query with a few lines of script, then answers "Login finished". No answer within
/// ``timeout`` seconds ends the login with ``LoginError/timedOut(seconds:)``, and the listener closes.
public struct LoopbackPresenter: AuthorizationPresenter {
    public var opener: BrowserOpener
    public var timeout: TimeInterval
    /// Told the URL (and whether a browser was opened) before the wait starts; prints to standard error
    /// by default.
    public var announce: @Sendable (URL, Bool) -> Void
    /// When true, the dialog is fetched once before the browser opens, so that a provider that is down or
    /// an app it does not know ends the login at once with the reason (``LoginError/dialogUnreachable(origin:reason:)``,
    /// ``LoginError/dialogFailed(code:message:)``) instead of after ``timeout``.
    public var checksDialogFirst: Bool

    public static let callbackPath = "/callback"

    public init(
        opener: BrowserOpener = .system, timeout: TimeInterval = 300, checksDialogFirst: Bool = false,
        announce: @escaping @Sendable (URL, Bool) -> Void = LoopbackPresenter.printToStandardError
    ) {
        self.opener = opener
        self.timeout = timeout
        self.checksDialogFirst = checksDialogFirst
        self.announce = announce
    }

    public func begin(appID: String) async throws(LoginError) -> any AuthorizationAttempt {
        let listener: LoopbackListener
        do { listener = try await LoopbackListener.open(callbackPath: Self.callbackPath) } catch {
            throw .presentationFailed("cannot listen on 127.0.0.1: \(error)")
        }
        return LoopbackAttempt(listener: listener, presenter: self)
    }

    @Sendable public static func printToStandardError(_ url: URL, _ opened: Bool) {
        let lead =
            opened
            ? "Opened the login dialog in your browser. If it did not appear, open this address:"
            : "Open this address in a browser to log in:"
        FileHandle.standardError.write(Data("\(lead)\n\n  \(url.absoluteString)\n\n".utf8))
    }
}

struct LoopbackAttempt: AuthorizationAttempt {
    let listener: LoopbackListener
    let presenter: LoopbackPresenter

    var redirectURI: String { "http://127.0.0.1:\(listener.port)\(LoopbackPresenter.callbackPath)" }

    func present(_ url: URL) async throws(LoginError) -> URL {
        let mailbox = listener.mailbox
        // Only the answer to this dialog ends the login: a request to the listener with another `state` (a page
        // that guessed the port) is answered 400 and the wait goes on. Set before the dialog's check, during
        // which the listener is already bound.
        mailbox.expectedState = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value
        if presenter.checksDialogFirst {
            do { try await DialogPreflight.check(url) } catch {
                await listener.close()
                throw error
            }
        }
        let timeout = presenter.timeout.isFinite ? min(max(presenter.timeout, 0.001), 86_400) : 300
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            if !Task.isCancelled { mailbox.fail(.timedOut(seconds: timeout)) }
        }
        defer { timer.cancel() }
        let opened = presenter.opener.open(url)
        presenter.announce(url, opened)
        do {
            let answer = try await mailbox.wait()
            // The browser's page first, then the listening socket (closing it leaves open connections be).
            await mailbox.waitForAnswerPage()
            await listener.close()
            return answer
        } catch {
            await listener.close()
            if let error = error as? LoginError { throw error }
            throw .presentationFailed(String(describing: error))
        }
    }

    func abandon() async {
        listener.mailbox.fail(.presentationFailed("the login was abandoned"))
        await listener.close()
    }
}
