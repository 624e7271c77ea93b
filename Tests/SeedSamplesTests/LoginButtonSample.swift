// The login-button sample of the seeds ("Limited Login for iOS"), as written there, in a class that
// stands for the app's view controller. Left out, because they are UIKit: the `UIViewController`
// superclass, the `@IBOutlet` of the button (here a stored property), `override` and
// `super.viewDidLoad()`. Changed: `"123" as NSString` is `"123"`, because `FBLoginButton.nonce` is a
// `String?` (in FBSDKLoginKit 18.x too, where the `NSString` does not compile in Swift either).
// Added: `loginButtonDidLogOut(_:)`, which `LoginButtonDelegate` requires and the sample does not show.
import Foundation
import LimitedLogin

@MainActor
final class LoginButtonSampleViewController: LoginButtonDelegate {
    let loginButton = FBLoginButton()

    func viewDidLoad() {
        setupLoginButton()
    }

    func setupLoginButton() {
        loginButton.delegate = self
        loginButton.permissions = ["email"]
        loginButton.loginTracking = .limited
        loginButton.nonce = "123"
    }

    func loginButton(_ loginButton: FBLoginButton, didCompleteWith potentialResult: LoginManagerLoginResult?, error potentialError: Error?) {
        if let error = potentialError {
            // Handle Error
        }

        guard let result = potentialResult else {
            // Handle missing result
            return
        }

        guard !result.isCancelled else {
            // Handle cancellation
            return
        }

        // Handle successful login
        let userID = Profile.current?.userID
        let email = Profile.current?.email
        let tokenString = AuthenticationToken.current?.tokenString
    }

    func loginButtonDidLogOut(_ loginButton: FBLoginButton) {}
}
