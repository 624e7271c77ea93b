namespace Facebook.Unity
{
    using System.Collections.Generic;

    /// <summary>
    /// A login's result read from the native library's JSON (the Unity SDK's keys): <c>cancelled</c>,
    /// <c>error</c>, <c>auth_token_string</c> and <c>auth_nonce</c>, and a classic login's access token.
    /// </summary>
    internal sealed class LoginResult : ILoginResult
    {
        internal LoginResult(string rawResult)
        {
            this.RawResult = rawResult;
            this.ResultDictionary = JsonReader.ParseObject(rawResult);
            this.Error = JsonReader.StringMember(this.ResultDictionary, "error");
            this.Cancelled = IsTrue(this.ResultDictionary, "cancelled");
            if (this.Error == null && !this.Cancelled)
            {
                this.AuthenticationToken = AuthenticationToken.FromDictionary(this.ResultDictionary);
                this.AccessToken = AccessToken.FromDictionary(this.ResultDictionary);
            }
        }

        /// <summary>A result made on this side: the native answer could not be read.</summary>
        internal LoginResult(string rawResult, string error)
        {
            this.RawResult = rawResult;
            this.ResultDictionary = new Dictionary<string, object> { { "error", error } };
            this.Error = error;
        }

        public string Error { get; private set; }

        public IDictionary<string, string> ErrorDictionary
        {
            get { return null; }
        }

        public IDictionary<string, object> ResultDictionary { get; private set; }

        public string RawResult { get; private set; }

        public bool Cancelled { get; private set; }

        public AccessToken AccessToken { get; private set; }

        public AuthenticationToken AuthenticationToken { get; private set; }

        /// <summary>The library's name for the error (<c>error_code</c>), or null.</summary>
        internal string ErrorCode
        {
            get { return JsonReader.StringMember(this.ResultDictionary, "error_code"); }
        }

        public override string ToString()
        {
            return "LoginResult(Cancelled: " + this.Cancelled + ", Error: " + (this.Error ?? "null")
                + ", AuthenticationToken: " + (this.AuthenticationToken == null ? "null" : this.AuthenticationToken.ToString())
                + ", AccessToken: " + (this.AccessToken == null ? "null" : this.AccessToken.ToString()) + ")";
        }

        private static bool IsTrue(IDictionary<string, object> members, string name)
        {
            object value;
            if (!members.TryGetValue(name, out value))
            {
                return false;
            }

            return (value is bool && (bool)value) || (value is string && (string)value == "true");
        }
    }
}
