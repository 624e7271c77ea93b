namespace LimitedLogin.UnityBindingTests
{
    using System;
    using System.IO;
    using System.Linq;
    using Facebook.Unity;

    /// <summary>
    /// The second run, a new process: the session the first run saved is restored by FB.Init, then
    /// FB.LogOut clears it in memory and on disk.
    /// </summary>
    internal static class RestartTests
    {
        internal static void Run(Uri provider, string stateFile, string expectedFile)
        {
            string[] expected = File.ReadAllLines(expectedFile);
            Check.Equal(3, expected.Length, "the first run left the token, Alice's ID and Bob's ID");
            string tokenString = expected[0];
            string userId = expected[1];
            string bobId = expected[2];
            Check.True(File.Exists(stateFile), "the first run left a saved session");

            FB.Init(Program.AppId, provider, stateFile);
            AuthenticationToken token = Check.NotNull(FB.Mobile.CurrentAuthenticationToken(), "the restored authentication token");
            Check.Equal(tokenString, token.TokenString, "the restored token is the one the first run received");
            Check.Equal("nonce123", token.Nonce, "the restored token's nonce");
            AliceProfile.Verify(FB.Mobile.CurrentProfile(), userId, bobId, provider, "after the restart");
            Check.True(FB.IsLoggedIn, "FB.IsLoggedIn after the restart");

            FB.LogOut();
            Check.Null(FB.Mobile.CurrentAuthenticationToken(), "no authentication token after FB.LogOut");
            Check.Null(FB.Mobile.CurrentProfile(), "no profile after FB.LogOut");
            Check.True(!File.Exists(stateFile), "FB.LogOut removed the saved session");

            // Set up again: the session is read from disk anew, and it is empty.
            FB.Init(Program.AppId, provider, stateFile);
            Check.Null(FB.Mobile.CurrentAuthenticationToken(), "no authentication token when read again from disk");
            Check.Null(FB.Mobile.CurrentProfile(), "no profile when read again from disk");
            Check.Null(AccessToken.CurrentAccessToken, "no access token when read again from disk");
            ClassicSessionRestored(provider, stateFile + ".classic", stateFile);
        }

        /// <summary>
        /// A classic login's access token is current again after FB.Init reads its saved session, as the Unity SDK
        /// restores <see cref="AccessToken.CurrentAccessToken"/> (code that reads <c>UserId</c> after
        /// <c>FB.IsLoggedIn</c> must not meet null); FB.Init with a session that has none leaves none.
        /// </summary>
        private static void ClassicSessionRestored(Uri provider, string classicFile, string emptyFile)
        {
            FB.Init(Program.AppId, provider, classicFile);
            FB.Testing.UseScriptedPerson(new ScriptedPerson("alice@example.com", "alice-pass"));
            ILoginResult result = Logins.LogIn(LoginTracking.ENABLED, new[] { "email" }, "classic-nonce");
            Check.Null(result.Error, "Alice's classic login: no error");
            AccessToken loggedIn = Check.NotNull(result.AccessToken, "the classic login's access token");

            FB.Init(Program.AppId, provider, emptyFile);
            Check.Null(AccessToken.CurrentAccessToken, "FB.Init with a saved session that has no access token: none current");
            FB.Init(Program.AppId, provider, classicFile);
            AccessToken restored = Check.NotNull(AccessToken.CurrentAccessToken, "FB.Init restores the saved access token");
            Check.Equal(loggedIn.TokenString, restored.TokenString, "the restored access token's string");
            Check.Equal(loggedIn.UserId, restored.UserId, "the restored access token's user");
            Check.True(restored.Permissions.Contains("email"), "the restored access token's permissions");
            Check.True(FB.IsLoggedIn, "FB.IsLoggedIn with the restored access token");
            FB.LogOut();
            Check.Null(AccessToken.CurrentAccessToken, "no access token after FB.LogOut");
        }
    }
}
