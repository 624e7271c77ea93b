namespace Facebook.Unity
{
    /// <summary>
    /// Whether a login may be used to track the person: <c>ENABLED</c> is classic Facebook Login (an access
    /// token and the Graph API), <c>LIMITED</c> is Limited Login (an OpenID Connect ID token only).
    /// </summary>
    public enum LoginTracking
    {
        ENABLED,
        LIMITED,
    }
}
