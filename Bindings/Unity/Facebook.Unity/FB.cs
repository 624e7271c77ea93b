namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;
    using System.Linq;

    /// <summary>
    /// The Unity SDK's entry point, on the Limited Login C library: set up with <see cref="Init"/>, log in
    /// with <see cref="Mobile.LoginWithTrackingPreference"/>, read <see cref="Mobile.CurrentAuthenticationToken"/>
    /// and <see cref="Mobile.CurrentProfile"/>, and <see cref="LogOut"/>. Results reach their delegates when
    /// <see cref="ResultDispatcher"/> is pumped.
    /// </summary>
    public static class FB
    {
        /// <summary>The app ID given to <see cref="Init"/>.</summary>
        public static string AppId { get; private set; }

        /// <summary>True once <see cref="Init"/> has succeeded.</summary>
        public static bool IsInitialized { get; private set; }

        /// <summary>True when a classic login's access token is current and unexpired, or a login's authentication token is current.</summary>
        public static bool IsLoggedIn
        {
            get
            {
                AccessToken token = AccessToken.CurrentAccessToken;
                return (token != null && token.ExpirationTime > DateTime.UtcNow) || Mobile.CurrentAuthenticationToken() != null;
            }
        }

        /// <summary>
        /// Sets the SDK up for <paramref name="appId"/>, against the real service (<paramref name="provider"/>
        /// null) or a <c>limited-login serve</c> provider at that base URL. The signed-in state is saved in
        /// <paramref name="stateFile"/> (null: <c>$LIMITED_LOGIN_STATE_FILE</c>, else the SDK's default) and
        /// restored from it by the next run. May be called again. Throws <see cref="LimitedLoginException"/>
        /// when the library refuses the arguments.
        /// </summary>
        public static void Init(string appId, Uri provider = null, string stateFile = null, InitDelegate onInitComplete = null)
        {
            string answer = NativeMethods.Init(appId, provider == null ? "facebook" : provider.AbsoluteUri, stateFile);
            LimitedLoginException.ThrowIfError(JsonReader.ParseObject(answer));
            ResultDispatcher.Attach();
            AppId = appId;
            IsInitialized = true;
            // As the Unity SDK at FB.Init: a classic login's access token saved by an earlier run is current again
            // (null when the session restored has none).
            IDictionary<string, object> accessToken = Mobile.Current(NativeMethods.CurrentAccessToken());
            AccessToken.CurrentAccessToken = accessToken == null ? null : AccessToken.FromDictionary(accessToken);
            if (onInitComplete != null)
            {
                onInitComplete();
            }
        }

        /// <summary>Signs out: the authentication token, access token and profile become null, here and on disk.</summary>
        public static void LogOut()
        {
            // Signed out in memory whatever happens to the saved file (the library clears its values first too).
            AccessToken.CurrentAccessToken = null;
            LimitedLoginException.ThrowIfError(JsonReader.ParseObject(NativeMethods.LogOut()));
        }

        /// <summary>The calls of the Unity SDK's mobile platforms.</summary>
        public static class Mobile
        {
            /// <summary>
            /// Asks the person to log in with <paramref name="permissions"/>: <c>LIMITED</c> for Limited Login,
            /// <c>ENABLED</c> for classic. The ID token will carry <paramref name="nonce"/> (null: a random one).
            /// Returns at once; the result — success, cancel or error, including arguments the library refused —
            /// reaches <paramref name="callback"/> at the next <see cref="ResultDispatcher.Pump"/>.
            /// </summary>
            public static void LoginWithTrackingPreference(
                LoginTracking loginTracking,
                IEnumerable<string> permissions = null,
                string nonce = null,
                FacebookDelegate<ILoginResult> callback = null)
            {
                string tracking = loginTracking == LoginTracking.ENABLED ? "enabled"
                    : loginTracking == LoginTracking.LIMITED ? "limited"
                    : loginTracking.ToString();
                string scope = permissions == null ? string.Empty : string.Join(",", permissions.Where(name => name != null).ToArray());
                int requestId = ResultDispatcher.Register(callback);
                string answer = NativeMethods.LoginWithTrackingPreference(requestId, scope, tracking, nonce);
                // A refused login's answer is its result: it reaches the delegate like any other.
                if (JsonReader.StringMember(JsonReader.ParseObject(answer), "error") != null)
                {
                    ResultDispatcher.Enqueue(requestId, answer);
                }
            }

            /// <summary>The current authentication token, or null when nobody is signed in.</summary>
            public static AuthenticationToken CurrentAuthenticationToken()
            {
                IDictionary<string, object> members = Current(NativeMethods.CurrentAuthenticationToken());
                return members == null ? null : AuthenticationToken.FromDictionary(members);
            }

            /// <summary>The current profile, or null when nobody is signed in.</summary>
            public static Profile CurrentProfile()
            {
                IDictionary<string, object> members = Current(NativeMethods.CurrentProfile());
                return members == null ? null : Profile.FromDictionary(members);
            }

            /// <summary>The members of a current value; null for "" (nobody signed in); throws for an error.</summary>
            internal static IDictionary<string, object> Current(string answer)
            {
                if (answer.Length == 0)
                {
                    return null;
                }

                IDictionary<string, object> members = JsonReader.ParseObject(answer);
                LimitedLoginException.ThrowIfError(members);
                return members;
            }
        }

        /// <summary>For tests and CI (not in the Unity SDK): who answers the login dialog.</summary>
        public static class Testing
        {
            /// <summary>From now on <paramref name="person"/> answers the dialog, with a browser of their own.</summary>
            public static void UseScriptedPerson(ScriptedPerson person)
            {
                if (person == null)
                {
                    throw new ArgumentNullException("person");
                }

                string untick = string.Join(",", person.Untick.ToArray());
                LimitedLoginException.ThrowIfError(JsonReader.ParseObject(
                    NativeMethods.UseScriptedPerson(person.Email, person.Password, untick, person.Cancels)));
            }

            /// <summary>The system browser answers the dialog again (the default).</summary>
            public static void UseSystemBrowser()
            {
                NativeMethods.UseSystemBrowser();
            }
        }
    }
}
