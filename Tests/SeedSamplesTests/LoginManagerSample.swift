// The login-manager sample of the seeds ("Limited Login for iOS", "Implement Limited Login"), as written
// there, in a function of its own. Only the SDK's import differs: `LimitedLogin` in place of
// `FacebookLogin`. It reads `Settings.shared` and `Profile.current`, as an app does.
import Foundation
import LimitedLogin

func loginManagerSample() {
    let loginManager = LoginManager()

    // Ensure the configuration object is valid
    guard
        let configuration = LoginConfiguration(
            permissions: ["email", "user_friends", "user_birthday", "user_age_range", "user_gender", "user_location", "user_hometown", "user_link"],
            tracking: .limited,
            nonce: "123")
    else {
        return
    }

    loginManager.logIn(configuration: configuration) { result in
        switch result {
        case .cancelled, .failed:
            // Handle error
            break
        case .success:
            // getting user ID
            let userID = Profile.current?.userID

            // getting pre-populated email
            let email = Profile.current?.email

            // getting pre-populated friends list
            let friendIDs = Profile.current?.friendIDs

            // getting pre-populated user birthday
            let birthday = Profile.current?.birthday

            // getting pre-populated age range
            let ageRange = Profile.current?.ageRange

            // getting user gender
            let gender = Profile.current?.gender

            // getting user location
            let location = Profile.current?.location

            // getting user hometown
            let hometown = Profile.current?.hometown

            // getting user profile URL
            let profileURL = Profile.current?.linkURL

            // getting id token string
            let tokenString = AuthenticationToken.current?.tokenString
        }
    }
}
