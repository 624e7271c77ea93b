import LimitedLoginCore

/// What a ``ScriptedPresenter`` does on the dialog's pages, as a person would.
public struct ScriptedPerson: Sendable {
    /// How the person signs in when the dialog asks.
    public enum SignIn: Sendable, Equatable {
        /// Picks the test user with this provider user ID on the sign-in page (searching for it when the
        /// page does not list it). The provider must offer the user to pick (a pickable user).
        case testUser(id: String)
        /// Picks a test user given by provider user ID or email, found with the sign-in page's search
        /// (`limited-login login --as alice@example.com`). The provider must offer the user to pick.
        case pick(String)
        /// Types an email and password into the sign-in form.
        case credentials(email: String, password: String)
    }

    /// The button the person presses on the consent page.
    public enum Decision: String, Sendable, Equatable {
        case `continue`
        case cancel
    }

    public var signIn: SignIn
    /// Permissions the person unticks on the consent page (`public_profile` cannot be unticked).
    public var untick: Set<Permission>
    public var decision: Decision

    public init(signIn: SignIn, untick: Set<Permission> = [], decision: Decision = .continue) {
        self.signIn = signIn
        self.untick = untick
        self.decision = decision
    }
}
