namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;

    /// <summary>
    /// The ID token of a login (a JWT) and the nonce it was asked with. Verify it on your server before
    /// trusting it (the token's signature, issuer, audience, expiry and nonce).
    /// </summary>
    public class AuthenticationToken
    {
        internal AuthenticationToken(string tokenString, string nonce)
        {
            if (string.IsNullOrEmpty(tokenString))
            {
                throw new ArgumentNullException("tokenString");
            }

            if (string.IsNullOrEmpty(nonce))
            {
                throw new ArgumentNullException("nonce");
            }

            this.TokenString = tokenString;
            this.Nonce = nonce;
        }

        /// <summary>The compact JWT.</summary>
        public string TokenString { get; private set; }

        /// <summary>The nonce the login was made with, which the token carries.</summary>
        public string Nonce { get; private set; }

        /// <summary>Reads <c>auth_token_string</c> and <c>auth_nonce</c>; null when either is missing.</summary>
        internal static AuthenticationToken FromDictionary(IDictionary<string, object> members)
        {
            string tokenString = JsonReader.StringMember(members, "auth_token_string");
            string nonce = JsonReader.StringMember(members, "auth_nonce");
            if (string.IsNullOrEmpty(tokenString) || string.IsNullOrEmpty(nonce))
            {
                return null;
            }

            return new AuthenticationToken(tokenString, nonce);
        }

        public override string ToString()
        {
            return "AuthenticationToken(Nonce: " + this.Nonce + ")";
        }
    }
}
