import LimitedLogin
import LimitedLoginCore

/// Who answers the login dialog for the C library's logins.
enum NativePerson: Sendable {
    /// A person at the system browser, the answer coming back to a loopback listener.
    case systemBrowser
    /// The SDK's scripted person, for tests and CI.
    case scripted(ScriptedPerson)

    /// Checks the arguments of `LLFBUseScriptedPerson`: a non-empty email; a password, or nil to pick
    /// the test user on the sign-in page; the permissions to untick.
    static func scripted(email: String, password: String?, untick: String?, cancel: Bool) throws(NativeError) -> NativePerson {
        guard !email.isEmpty else { throw NativeError(code: .invalidEmail, message: "the scripted person's email is empty") }
        let signIn: ScriptedPerson.SignIn = password.map { .credentials(email: email, password: $0) } ?? .pick(email)
        let unticked = try CArgument.permissions(untick ?? "", "untick")
        return .scripted(ScriptedPerson(signIn: signIn, untick: Set(unticked), decision: cancel ? .cancel : .continue))
    }

    /// A presenter that plays this person; a scripted one starts with a browser of its own (no cookies).
    func makePresenter() -> any AuthorizationPresenter {
        switch self {
        case .systemBrowser: return LoopbackPresenter()
        case .scripted(let person): return ScriptedPresenter(person: person)
        }
    }
}
