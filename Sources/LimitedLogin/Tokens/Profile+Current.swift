import LimitedLoginCore

extension Profile {
    /// The profile of ``LoginSession/shared``: built from the ID token's claims at login.
    public static var current: Profile? {
        get { LoginSession.shared.profile }
        set { LoginSession.shared.set { $0.profile = newValue } }
    }
}
