namespace LimitedLogin.UnityBindingTests
{
    using System;
    using System.Collections.Generic;
    using System.Text;
    using System.Text.RegularExpressions;
    using Facebook.Unity;

    /// <summary>Logins as a console program makes them: start one, then pump results until its delegate ran.</summary>
    internal static class Logins
    {
        /// <summary>How long a login may take before the test fails.</summary>
        private static readonly TimeSpan Limit = TimeSpan.FromSeconds(90);

        /// <summary>Logs in and returns the result its delegate received.</summary>
        internal static ILoginResult LogIn(LoginTracking tracking, IEnumerable<string> permissions, string nonce)
        {
            ILoginResult received = null;
            FB.Mobile.LoginWithTrackingPreference(tracking, permissions, nonce, result => received = result);
            WaitUntil(() => received != null, "the login's result");
            return received;
        }

        /// <summary>Pumps results until <paramref name="done"/> holds; fails the test after <see cref="Limit"/>.</summary>
        internal static void WaitUntil(Func<bool> done, string what)
        {
            DateTime deadline = DateTime.UtcNow + Limit;
            while (!done())
            {
                if (DateTime.UtcNow > deadline)
                {
                    throw new CheckFailure(what + " did not arrive within " + Limit.TotalSeconds + " s");
                }

                ResultDispatcher.WaitAndPump(TimeSpan.FromSeconds(1));
            }
        }

        /// <summary>The string claim <paramref name="name"/> of a JWT's payload (read, not verified: the SDK verified it).</summary>
        internal static string Claim(string jwt, string name)
        {
            string[] parts = jwt.Split('.');
            Check.Equal(3, parts.Length, "the ID token's segment count");
            string payload = parts[1].Replace('-', '+').Replace('_', '/');
            payload += new string('=', (4 - (payload.Length % 4)) % 4);
            string json = Encoding.UTF8.GetString(Convert.FromBase64String(payload));
            Match match = Regex.Match(json, "\"" + Regex.Escape(name) + "\":\"([^\"]*)\"");
            return match.Success ? match.Groups[1].Value : null;
        }

        /// <summary>The result's <c>error_code</c> member.</summary>
        internal static string ErrorCode(IResult result)
        {
            object code;
            return result.ResultDictionary != null && result.ResultDictionary.TryGetValue("error_code", out code) ? code as string : null;
        }

        /// <summary>The result's string-array member <paramref name="name"/> (granted or declined permissions).</summary>
        internal static List<string> Strings(IResult result, string name)
        {
            var strings = new List<string>();
            object value;
            if (result.ResultDictionary != null && result.ResultDictionary.TryGetValue(name, out value) && value is List<object>)
            {
                foreach (object element in (List<object>)value)
                {
                    strings.Add(element as string);
                }
            }

            return strings;
        }
    }
}
