namespace LimitedLogin.UnityBindingTests
{
    using System.Collections.Generic;
    using Facebook.Unity;

    /// <summary>
    /// The seed's two Unity samples ("Limited Login for Unity": Implementing Limited Login, Retrieving
    /// Profile Data), verbatim, in a class that declares the fields and the result handler they use.
    /// The test runs them against the provider and reads the fields they fill.
    /// </summary>
    internal sealed class SeedSamples
    {
        internal List<string> scopes = new List<string>
        {
            "public_profile", "email", "gaming_profile", "gaming_user_picture", "user_age_range", "user_birthday",
            "user_friends", "user_gender", "user_hometown", "user_link", "user_location", "user_messenger_contact",
        };

        internal string userName;
        internal string userId;
        internal string userEmail;
        internal string profileImageUrl;
        internal System.DateTime? userBirthday;
        internal UserAgeRange userAgeRange;
        internal string[] userFriendIDs;
        internal string userGender;
        internal string userLink;
        internal FBLocation userHometown;
        internal FBLocation userLocation;

        /// <summary>What <see cref="HandleResult"/> received.</summary>
        internal IResult lastResult;

        internal void LogIn()
        {
            FB.Mobile.LoginWithTrackingPreference(LoginTracking.LIMITED, scopes, "nonce123", this.HandleResult);
        }

        internal void ReadProfile()
        {
            this.GetProfileInfo();
        }

        private void HandleResult(IResult result)
        {
            this.lastResult = result;
        }

        private void GetProfileInfo()
        {
            var profile = FB.Mobile.CurrentProfile();
            if (profile != null)
            {
                this.userName = profile.Name;
                this.userId = profile.UserID;
                this.userEmail = profile.Email;
                this.profileImageUrl = profile.ImageURL;
                this.userBirthday = profile.Birthday;
                this.userAgeRange = profile.AgeRange;
                this.userFriendIDs = profile.FriendIDs;
                this.userGender = profile.Gender;
                this.userLink = profile.LinkURL;
                this.userHometown = profile.Hometown;
                this.userLocation = profile.Location;
            }
        }
    }
}
