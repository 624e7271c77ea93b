/// What an ``FBLoginButton`` tells its delegate, as the iOS SDK's `LoginButtonDelegate`.
@MainActor
public protocol LoginButtonDelegate: AnyObject {
    /// The login a tap started finished: a result (also for a cancel, with `isCancelled`), or an error.
    func loginButton(_ loginButton: FBLoginButton, didCompleteWith result: LoginManagerLoginResult?, error: (any Error)?)
    /// The person confirmed logging out; the session is now empty.
    func loginButtonDidLogOut(_ loginButton: FBLoginButton)
    /// A tap is about to log in; returning false stops it. Optional: by default the login goes on.
    func loginButtonWillLogin(_ loginButton: FBLoginButton) -> Bool
}

extension LoginButtonDelegate {
    public func loginButtonWillLogin(_ loginButton: FBLoginButton) -> Bool { true }
}
