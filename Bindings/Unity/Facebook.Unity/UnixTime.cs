namespace Facebook.Unity
{
    using System;

    /// <summary>Unix seconds, as the native library writes times.</summary>
    internal static class UnixTime
    {
        private static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        /// <summary>The UTC time <paramref name="seconds"/> after 1970-01-01.</summary>
        internal static DateTime ToDateTime(long seconds)
        {
            return Epoch.AddSeconds(seconds);
        }
    }
}
