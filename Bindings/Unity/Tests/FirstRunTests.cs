namespace LimitedLogin.UnityBindingTests
{
    using System;
    using System.IO;
    using System.Linq;
    using Facebook.Unity;

    /// <summary>
    /// The first run: every call before set-up and every argument refused with its own error; Bob logs in
    /// and out; a login for an unknown app fails; Alice cancels, unticks, logs in classic; then the seed's
    /// samples log Alice in with every limited permission, and the run ends signed in for the restart.
    /// </summary>
    internal static class FirstRunTests
    {
        private static readonly string[] Everything =
        {
            "public_profile", "email", "gaming_profile", "gaming_user_picture", "user_age_range", "user_birthday",
            "user_friends", "user_gender", "user_hometown", "user_link", "user_location", "user_messenger_contact",
        };

        internal static void Run(Uri provider, string stateFile, string expectedFile)
        {
            Check.True(!File.Exists(stateFile), "the run starts with no saved session at " + stateFile);
            BeforeInit();
            RefusedInit(provider, stateFile);
            bool initCompleted = false;
            FB.Init(Program.AppId, provider, stateFile, () => initCompleted = true);
            Check.True(initCompleted && FB.IsInitialized, "FB.Init completes");
            Check.Null(FB.Mobile.CurrentAuthenticationToken(), "no authentication token before any login");
            Check.Null(FB.Mobile.CurrentProfile(), "no profile before any login");
            RefusedLogins();
            RefusedPeople();
            string bobId = BobLogsInAndOut();
            UnknownApp(provider, stateFile);
            AliceCancels();
            AliceUnticksEmail();
            AliceLogsInClassic();
            SeedSamplesLogAliceIn(provider, bobId, expectedFile);
        }

        /// <summary>Nothing works before FB.Init, and each call says so.</summary>
        private static void BeforeInit()
        {
            Check.True(!FB.IsInitialized, "not initialised at start");
            Check.Throws("not_initialized", () => FB.Mobile.CurrentProfile(), "CurrentProfile before FB.Init");
            Check.Throws("not_initialized", () => FB.Mobile.CurrentAuthenticationToken(), "CurrentAuthenticationToken before FB.Init");
            Check.Throws("not_initialized", () => FB.LogOut(), "LogOut before FB.Init");
            ILoginResult result = Logins.LogIn(LoginTracking.LIMITED, new[] { "email" }, "n-before-init");
            ExpectRefused(result, "not_initialized", "LLFBInit has not succeeded yet: set up the app ID and provider first", "a login before FB.Init");
        }

        private static void RefusedInit(Uri provider, string stateFile)
        {
            LimitedLoginException refused = Check.Throws("null_argument", () => FB.Init(null, provider, stateFile), "FB.Init without an app ID");
            Check.Equal("app_id is NULL", refused.Message, "FB.Init without an app ID: the message");
            refused = Check.Throws("invalid_app_id", () => FB.Init("", provider, stateFile), "FB.Init with an empty app ID");
            Check.Equal("the app ID must be 1 to 64 ASCII letters and digits, not \"\"", refused.Message, "FB.Init with an empty app ID: the message");
            Check.Throws("invalid_app_id", () => FB.Init("42 42", provider, stateFile), "FB.Init with a space in the app ID");
            refused = Check.Throws("invalid_provider", () => FB.Init(Program.AppId, new Uri("ftp://127.0.0.1/"), stateFile), "FB.Init with an ftp provider");
            Check.Equal(
                "the provider must be \"facebook\" or a provider's http(s) base URL such as http://127.0.0.1:8080, not \"ftp://127.0.0.1/\"",
                refused.Message, "FB.Init with an ftp provider: the message");
            Check.Throws("invalid_state_file", () => FB.Init(Program.AppId, provider, string.Empty), "FB.Init with an empty state file path");
            Check.True(!FB.IsInitialized, "a refused FB.Init leaves the SDK not initialised");
            Check.Throws("not_initialized", () => FB.Mobile.CurrentProfile(), "CurrentProfile after refused FB.Init calls");
        }

        /// <summary>Arguments the library refuses come back as the login's result, each with its own error.</summary>
        private static void RefusedLogins()
        {
            ExpectRefused(
                Logins.LogIn((LoginTracking)7, new[] { "email" }, "n"), "unknown_tracking",
                "tracking must be \"limited\" or \"enabled\", not \"7\"", "an unknown tracking value");
            ExpectRefused(
                Logins.LogIn(LoginTracking.LIMITED, new[] { "user_likes" }, "n"), "permission_not_allowed_in_limited_login",
                "\"user_likes\" cannot be requested in a limited login", "user_likes in a limited login");
            ExpectRefused(
                Logins.LogIn(LoginTracking.LIMITED, new[] { "Email" }, "n"), "invalid_permission_name",
                "scope: \"Email\" is not a valid permission name (only a-z and _)", "a permission name with a capital");
            ExpectRefused(
                Logins.LogIn(LoginTracking.LIMITED, new[] { "email" }, "two words"), "invalid_nonce",
                "the nonce must be a non-empty string without whitespace or control characters", "a nonce with a space");
            Check.Equal(0, ResultDispatcher.PendingRequests, "every refused login was answered");
        }

        private static void RefusedPeople()
        {
            Check.Throws("invalid_email", () => FB.Testing.UseScriptedPerson(new ScriptedPerson(string.Empty)), "a scripted person with no email");
            Check.Throws("null_argument", () => FB.Testing.UseScriptedPerson(new ScriptedPerson(null)), "a scripted person with a null email");
            var badUntick = new ScriptedPerson("alice@example.com", "alice-pass");
            badUntick.Untick.Add("E-mail");
            Check.Throws("invalid_permission_name", () => FB.Testing.UseScriptedPerson(badUntick), "unticking a permission name that is not valid");
        }

        /// <summary>Bob, picked on the sign-in page, logs in with user_friends (so that he is Alice's visible friend), then out.</summary>
        private static string BobLogsInAndOut()
        {
            FB.Testing.UseScriptedPerson(new ScriptedPerson("bob@example.com"));
            ILoginResult result = Logins.LogIn(LoginTracking.LIMITED, new[] { "public_profile", "user_friends" }, "bob-nonce");
            Check.Null(result.Error, "Bob's login: no error");
            Check.True(!result.Cancelled, "Bob's login: not cancelled");
            Check.Null(result.AccessToken, "Bob's limited login: no access token");
            AuthenticationToken token = Check.NotNull(result.AuthenticationToken, "Bob's login: an authentication token");
            Check.Equal("bob-nonce", token.Nonce, "Bob's login: the token's nonce");
            Check.Equal("bob-nonce", Logins.Claim(token.TokenString, "nonce"), "Bob's ID token: the nonce claim");
            Check.Equal(Program.AppId, Logins.Claim(token.TokenString, "aud"), "Bob's ID token: the audience");
            Check.True(Logins.Strings(result, "granted_permissions").Contains("user_friends"), "Bob granted user_friends");

            Profile profile = Check.NotNull(FB.Mobile.CurrentProfile(), "Bob's profile");
            Check.Equal("Bob Jones", profile.Name, "Bob's name");
            Check.Equal(Logins.Claim(token.TokenString, "sub"), profile.UserID, "Bob's UserID is the token's sub");
            Check.Equal(token.TokenString, FB.Mobile.CurrentAuthenticationToken().TokenString, "the current token is Bob's");
            Check.True(FB.IsLoggedIn, "FB.IsLoggedIn after Bob's login");

            FB.LogOut();
            Check.Null(FB.Mobile.CurrentAuthenticationToken(), "no authentication token after FB.LogOut");
            Check.Null(FB.Mobile.CurrentProfile(), "no profile after FB.LogOut");
            Check.True(!FB.IsLoggedIn, "FB.IsLoggedIn is false after FB.LogOut");
            return profile.UserID;
        }

        /// <summary>The provider has no such app: its dialog shows an error page, and the login fails with it.</summary>
        private static void UnknownApp(Uri provider, string stateFile)
        {
            FB.Init("999999999", provider, stateFile);
            FB.Testing.UseScriptedPerson(new ScriptedPerson("alice@example.com", "alice-pass"));
            ILoginResult result = Logins.LogIn(LoginTracking.LIMITED, new[] { "email" }, "unknown-app-nonce");
            ExpectRefused(
                result, "dialog_failed", "the login dialog failed (404): No app with ID 999999999 is registered with this provider.",
                "a login for an app the provider does not know");
            Check.Null(FB.Mobile.CurrentProfile(), "no profile after the failed login");
            FB.Init(Program.AppId, provider, stateFile);
        }

        private static void AliceCancels()
        {
            FB.Testing.UseScriptedPerson(new ScriptedPerson("alice@example.com", "alice-pass") { Cancels = true });
            ILoginResult result = Logins.LogIn(LoginTracking.LIMITED, new[] { "email" }, "cancel-nonce");
            Check.True(result.Cancelled, "Alice's cancelled login: Cancelled");
            Check.Null(result.Error, "Alice's cancelled login: no error");
            Check.Null(result.AuthenticationToken, "Alice's cancelled login: no authentication token");
            Check.Null(result.AccessToken, "Alice's cancelled login: no access token");
            Check.Equal("true", result.ResultDictionary["cancelled"] as string, "the result's cancelled member, as the Unity SDK sends it");
            Check.Null(FB.Mobile.CurrentAuthenticationToken(), "no authentication token after a cancel");
            Check.Null(FB.Mobile.CurrentProfile(), "no profile after a cancel");
        }

        private static void AliceUnticksEmail()
        {
            var person = new ScriptedPerson("alice@example.com", "alice-pass");
            person.Untick.Add("email");
            FB.Testing.UseScriptedPerson(person);
            ILoginResult result = Logins.LogIn(LoginTracking.LIMITED, new[] { "email", "user_birthday" }, "untick-nonce");
            Check.Null(result.Error, "Alice's login with email unticked: no error");
            Check.Sequence(new[] { "email" }, Logins.Strings(result, "declined_permissions"), "the declined permissions");
            Check.True(Logins.Strings(result, "granted_permissions").Contains("user_birthday"), "user_birthday was granted");
            Profile profile = Check.NotNull(FB.Mobile.CurrentProfile(), "the profile after the unticked login");
            Check.Null(profile.Email, "no email in the profile when email was unticked");
            Check.True(profile.Birthday.HasValue, "the birthday is there");
            FB.LogOut();
        }

        /// <summary>A classic login (ENABLED): an access token beside the authentication token; log-out clears it.</summary>
        private static void AliceLogsInClassic()
        {
            FB.Testing.UseScriptedPerson(new ScriptedPerson("alice@example.com", "alice-pass"));
            ILoginResult result = Logins.LogIn(LoginTracking.ENABLED, new[] { "email" }, "classic-nonce");
            Check.Null(result.Error, "Alice's classic login: no error");
            AccessToken accessToken = Check.NotNull(result.AccessToken, "Alice's classic login: an access token");
            Check.True(accessToken.TokenString.Length > 0, "the access token has a token string");
            Check.True(accessToken.Permissions.Contains("email"), "the access token's permissions hold email");
            Check.True(accessToken.ExpirationTime > DateTime.UtcNow, "the access token expires in the future");
            Check.Equal("facebook", accessToken.GraphDomain, "the access token's graph domain");
            Check.True(object.ReferenceEquals(accessToken, AccessToken.CurrentAccessToken), "AccessToken.CurrentAccessToken is the login's");
            Check.Equal("classic-nonce", Check.NotNull(result.AuthenticationToken, "Alice's classic login: an authentication token").Nonce, "the classic login's nonce");
            Check.Equal(FB.Mobile.CurrentProfile().UserID, accessToken.UserId, "the access token's user is the profile's");
            FB.LogOut();
            Check.Null(AccessToken.CurrentAccessToken, "no current access token after FB.LogOut");
            Check.Null(FB.Mobile.CurrentAuthenticationToken(), "no authentication token after FB.LogOut");
        }

        /// <summary>The seed's samples, unmodified: the login, then GetProfileInfo, every field checked.</summary>
        private static void SeedSamplesLogAliceIn(Uri provider, string bobId, string expectedFile)
        {
            FB.Testing.UseScriptedPerson(new ScriptedPerson("alice@example.com", "alice-pass"));
            var sample = new SeedSamples();
            Check.Sequence(Everything, sample.scopes, "the sample asks for every limited permission");
            sample.LogIn();
            Logins.WaitUntil(() => sample.lastResult != null, "the seed sample's login result");
            var result = sample.lastResult as ILoginResult;
            Check.NotNull(result, "the sample's handler received a login result");
            Check.Null(result.Error, "the sample's login: no error");
            Check.True(!result.Cancelled, "the sample's login: not cancelled");
            Check.Null(result.AccessToken, "the sample's limited login: no access token");
            Check.Null(AccessToken.CurrentAccessToken, "no current access token after a limited login");
            AuthenticationToken token = Check.NotNull(result.AuthenticationToken, "the sample's login: an authentication token");
            Check.Equal("nonce123", token.Nonce, "the token's nonce is the sample's");
            Check.Equal("nonce123", Logins.Claim(token.TokenString, "nonce"), "the ID token's nonce claim");
            Check.Equal(Program.AppId, Logins.Claim(token.TokenString, "aud"), "the ID token's audience");
            Check.Sequence(new string[0], Logins.Strings(result, "declined_permissions"), "nothing declined");

            AuthenticationToken current = Check.NotNull(FB.Mobile.CurrentAuthenticationToken(), "FB.Mobile.CurrentAuthenticationToken()");
            Check.Equal(token.TokenString, current.TokenString, "the current token is the login's");
            Check.Equal("nonce123", current.Nonce, "the current token's nonce");

            sample.ReadProfile();
            string userId = Logins.Claim(token.TokenString, "sub");
            Check.Equal("Alice Q Smith", sample.userName, "GetProfileInfo: userName");
            Check.Equal(userId, sample.userId, "GetProfileInfo: userId is the token's sub");
            Check.True(sample.userId != "100001", "GetProfileInfo: userId is app-scoped, not the provider's user ID");
            Check.Equal("alice@example.com", sample.userEmail, "GetProfileInfo: userEmail");
            Check.True(sample.profileImageUrl != null && sample.profileImageUrl.StartsWith(provider.AbsoluteUri, StringComparison.Ordinal),
                "GetProfileInfo: profileImageUrl is the provider's picture, found <" + sample.profileImageUrl + ">");
            Check.Equal(new DateTime(1990, 4, 22, 0, 0, 0, DateTimeKind.Utc), sample.userBirthday.Value.ToUniversalTime(), "GetProfileInfo: userBirthday");
            Check.Equal(21L, sample.userAgeRange.Min, "GetProfileInfo: userAgeRange.Min");
            Check.Equal(-1L, sample.userAgeRange.Max, "GetProfileInfo: userAgeRange.Max");
            Check.Sequence(new[] { bobId }, sample.userFriendIDs, "GetProfileInfo: userFriendIDs");
            Check.Equal("female", sample.userGender, "GetProfileInfo: userGender");
            Check.Equal("https://example.com/alice", sample.userLink, "GetProfileInfo: userLink");
            Check.Equal("Paris", sample.userHometown.Name, "GetProfileInfo: userHometown.Name");
            Check.Equal("501", sample.userHometown.ID, "GetProfileInfo: userHometown.ID");
            Check.Equal("Lyon", sample.userLocation.Name, "GetProfileInfo: userLocation.Name");
            Check.Equal("502", sample.userLocation.ID, "GetProfileInfo: userLocation.ID");
            AliceProfile.Verify(FB.Mobile.CurrentProfile(), userId, bobId, provider, "after the sample's login");
            Check.True(FB.IsLoggedIn, "FB.IsLoggedIn after the sample's login");

            // What the restarted program must find.
            File.WriteAllLines(expectedFile, new[] { token.TokenString, userId, bobId });
        }

        private static void ExpectRefused(ILoginResult result, string errorCode, string message, string what)
        {
            Check.Equal(message, result.Error, what + ": the error");
            Check.Equal(errorCode, Logins.ErrorCode(result), what + ": the error code");
            Check.True(!result.Cancelled, what + ": not cancelled");
            Check.Null(result.AuthenticationToken, what + ": no authentication token");
            Check.Null(result.AccessToken, what + ": no access token");
        }
    }
}
