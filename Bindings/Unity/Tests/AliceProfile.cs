namespace LimitedLogin.UnityBindingTests
{
    using System;
    using Facebook.Unity;

    /// <summary>What the app must see of Alice (fixtures.json) after a limited login with every permission.</summary>
    internal static class AliceProfile
    {
        internal static void Verify(Profile profile, string userId, string bobId, Uri provider, string when)
        {
            Check.NotNull(profile, when + ": the current profile");
            Check.Equal(userId, profile.UserID, when + ": UserID");
            Check.Equal("Alice", profile.FirstName, when + ": FirstName");
            Check.Equal("Q", profile.MiddleName, when + ": MiddleName");
            Check.Equal("Smith", profile.LastName, when + ": LastName");
            Check.Equal("Alice Q Smith", profile.Name, when + ": Name");
            Check.Equal("alice@example.com", profile.Email, when + ": Email");
            Check.True(profile.ImageURL != null && profile.ImageURL.StartsWith(provider.AbsoluteUri.TrimEnd('/') + "/", StringComparison.Ordinal),
                when + ": ImageURL is the provider's picture URL, found <" + profile.ImageURL + ">");
            Check.Equal("https://example.com/alice", profile.LinkURL, when + ": LinkURL");
            Check.Sequence(new[] { bobId }, profile.FriendIDs, when + ": FriendIDs (Bob uses the app with user_friends)");
            Check.True(profile.Birthday.HasValue, when + ": Birthday has a value");
            Check.Equal(new DateTime(1990, 4, 22, 0, 0, 0, DateTimeKind.Utc), profile.Birthday.Value.ToUniversalTime(), when + ": Birthday");
            Check.NotNull(profile.AgeRange, when + ": AgeRange");
            Check.Equal(21L, profile.AgeRange.Min, when + ": AgeRange.Min");
            Check.Equal(-1L, profile.AgeRange.Max, when + ": AgeRange.Max (none)");
            Check.NotNull(profile.Hometown, when + ": Hometown");
            Check.Equal("501", profile.Hometown.ID, when + ": Hometown.ID");
            Check.Equal("Paris", profile.Hometown.Name, when + ": Hometown.Name");
            Check.NotNull(profile.Location, when + ": Location");
            Check.Equal("502", profile.Location.ID, when + ": Location.ID");
            Check.Equal("Lyon", profile.Location.Name, when + ": Location.Name");
            Check.Equal("female", profile.Gender, when + ": Gender");
        }
    }
}
