import LimitedLoginCore

extension LoginSession {
    /// Applies `change` and saves it only while the person and app of `token` are still signed in: a Graph
    /// answer that arrives after ``LoginManager/logOut()`` (or another person's login) must not bring back a
    /// token or profile of before. Another refresh beside it (a new token string, the same person) is no such
    /// change. Throws ``GraphClientError/sessionChanged`` when nothing was saved for that reason.
    func updateWhileSignedIn(as token: AccessToken, _ change: (inout SessionSnapshot) -> Void) throws(GraphClientError) {
        var saved = false
        do {
            try update { snapshot in
                guard let current = snapshot.accessToken, current.userID == token.userID, current.appID == token.appID else { return }
                change(&snapshot)
                saved = true
            }
        } catch { throw .notSaved(error.description) }
        guard saved else { throw .sessionChanged }
    }
}
