namespace Facebook.Unity
{
    /// <summary>The result of a login request.</summary>
    public interface ILoginResult : IResult
    {
        /// <summary>The access token of a classic (<c>ENABLED</c>) login; null after a limited login, a cancel or an error.</summary>
        AccessToken AccessToken { get; }

        /// <summary>The authentication token (the OpenID Connect ID token) of a successful login, else null.</summary>
        AuthenticationToken AuthenticationToken { get; }
    }
}
