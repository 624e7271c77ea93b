namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;
    using System.Linq;

    /// <summary>
    /// A classic login's Graph API access token. A limited login has none: after one,
    /// <see cref="CurrentAccessToken"/> is null.
    /// </summary>
    public class AccessToken
    {
        internal AccessToken(
            string tokenString,
            string userId,
            DateTime expirationTime,
            IEnumerable<string> permissions,
            DateTime? lastRefresh,
            string graphDomain)
        {
            if (string.IsNullOrEmpty(tokenString))
            {
                throw new ArgumentNullException("tokenString");
            }

            if (string.IsNullOrEmpty(userId))
            {
                throw new ArgumentNullException("userId");
            }

            if (permissions == null)
            {
                throw new ArgumentNullException("permissions");
            }

            this.TokenString = tokenString;
            this.UserId = userId;
            this.ExpirationTime = expirationTime;
            this.Permissions = permissions;
            this.LastRefresh = lastRefresh;
            this.GraphDomain = graphDomain;
        }

        /// <summary>The access token of the last classic login; null after a limited login or a log-out.</summary>
        public static AccessToken CurrentAccessToken { get; internal set; }

        public string TokenString { get; private set; }

        /// <summary>When the token expires (UTC).</summary>
        public DateTime ExpirationTime { get; private set; }

        /// <summary>The permissions the person granted.</summary>
        public IEnumerable<string> Permissions { get; private set; }

        /// <summary>The app-scoped ID of the person.</summary>
        public string UserId { get; private set; }

        /// <summary>When the token was issued or last refreshed (UTC).</summary>
        public DateTime? LastRefresh { get; private set; }

        public string GraphDomain { get; private set; }

        /// <summary>
        /// Reads a classic login's members (<c>access_token</c>, <c>user_id</c>, <c>expiration_timestamp</c>,
        /// <c>permissions</c>, <c>last_refresh</c>, <c>graph_domain</c>); null when there is no access token.
        /// </summary>
        internal static AccessToken FromDictionary(IDictionary<string, object> members)
        {
            string tokenString = JsonReader.StringMember(members, "access_token");
            string userId = JsonReader.StringMember(members, "user_id");
            if (string.IsNullOrEmpty(tokenString) || string.IsNullOrEmpty(userId))
            {
                return null;
            }

            long expiration;
            long.TryParse(JsonReader.StringMember(members, "expiration_timestamp"), out expiration);
            long lastRefresh;
            DateTime? refreshed = null;
            if (long.TryParse(JsonReader.StringMember(members, "last_refresh"), out lastRefresh) && lastRefresh > 0)
            {
                refreshed = UnixTime.ToDateTime(lastRefresh);
            }

            return new AccessToken(
                tokenString,
                userId,
                UnixTime.ToDateTime(expiration),
                JsonReader.StringArrayMember(members, "permissions"),
                refreshed,
                JsonReader.StringMember(members, "graph_domain"));
        }

        public override string ToString()
        {
            return "AccessToken(UserId: " + this.UserId + ", ExpirationTime: " + this.ExpirationTime.ToString("u")
                + ", Permissions: " + string.Join(",", this.Permissions.ToArray()) + ")";
        }
    }
}
