namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;

    /// <summary>
    /// The person who logged in, as the app may see them: built from the ID token's claims at login.
    /// A value the person did not share is null (<see cref="FriendIDs"/> is then empty).
    /// </summary>
    public class Profile
    {
        internal Profile(
            string userID,
            string firstName,
            string middleName,
            string lastName,
            string name,
            string email,
            string imageURL,
            string linkURL,
            string[] friendIDs,
            DateTime? birthday,
            UserAgeRange ageRange,
            FBLocation hometown,
            FBLocation location,
            string gender)
        {
            this.UserID = userID;
            this.FirstName = firstName;
            this.MiddleName = middleName;
            this.LastName = lastName;
            this.Name = name;
            this.Email = email;
            this.ImageURL = imageURL;
            this.LinkURL = linkURL;
            this.FriendIDs = friendIDs ?? new string[] { };
            this.Birthday = birthday;
            this.AgeRange = ageRange;
            this.Hometown = hometown;
            this.Location = location;
            this.Gender = gender;
        }

        /// <summary>The app-scoped user ID.</summary>
        public string UserID { get; private set; }

        public string FirstName { get; private set; }

        public string MiddleName { get; private set; }

        public string LastName { get; private set; }

        public string Name { get; private set; }

        public string Email { get; private set; }

        /// <summary>The profile picture's URL.</summary>
        public string ImageURL { get; private set; }

        /// <summary>The person's profile link.</summary>
        public string LinkURL { get; private set; }

        /// <summary>App-scoped IDs of friends who also use the app and granted it <c>user_friends</c>.</summary>
        public string[] FriendIDs { get; private set; }

        /// <summary>The birthday: its midnight UTC, in local time (as the Unity SDK gives it).</summary>
        public DateTime? Birthday { get; private set; }

        public UserAgeRange AgeRange { get; private set; }

        public FBLocation Hometown { get; private set; }

        public FBLocation Location { get; private set; }

        public string Gender { get; private set; }

        /// <summary>Reads the native library's flat profile object (the Unity SDK's keys).</summary>
        internal static Profile FromDictionary(IDictionary<string, object> members)
        {
            string friendIDs = JsonReader.StringMember(members, "friendIDs");
            DateTime? birthday = null;
            long birthdaySeconds;
            if (long.TryParse(JsonReader.StringMember(members, "birthday"), out birthdaySeconds))
            {
                birthday = UnixTime.ToDateTime(birthdaySeconds).ToLocalTime();
            }

            return new Profile(
                JsonReader.StringMember(members, "userID"),
                JsonReader.StringMember(members, "firstName"),
                JsonReader.StringMember(members, "middleName"),
                JsonReader.StringMember(members, "lastName"),
                JsonReader.StringMember(members, "name"),
                JsonReader.StringMember(members, "email"),
                JsonReader.StringMember(members, "imageURL"),
                JsonReader.StringMember(members, "linkURL"),
                string.IsNullOrEmpty(friendIDs) ? new string[] { } : friendIDs.Split(','),
                birthday,
                UserAgeRange.FromDictionary(members),
                FBLocation.FromDictionary("hometown", members),
                FBLocation.FromDictionary("location", members),
                JsonReader.StringMember(members, "gender"));
        }

        public override string ToString()
        {
            return "Profile(UserID: " + this.UserID + ", Name: " + this.Name + ")";
        }
    }
}
