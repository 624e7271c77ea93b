namespace Facebook.Unity
{
    using System.Collections.Generic;

    /// <summary>The age bracket a person is in, such as 21 and over, or 18 to 20.</summary>
    public class UserAgeRange
    {
        internal UserAgeRange(long min, long max)
        {
            this.Min = min;
            this.Max = max;
        }

        /// <summary>The lower bound, inclusive; -1 when there is none.</summary>
        public long Min { get; private set; }

        /// <summary>The upper bound, inclusive; -1 when there is none.</summary>
        public long Max { get; private set; }

        /// <summary>Reads <c>ageMin</c> and <c>ageMax</c>; null when neither is there.</summary>
        internal static UserAgeRange FromDictionary(IDictionary<string, object> members)
        {
            long min;
            long max;
            if (!long.TryParse(JsonReader.StringMember(members, "ageMin"), out min))
            {
                min = -1;
            }

            if (!long.TryParse(JsonReader.StringMember(members, "ageMax"), out max))
            {
                max = -1;
            }

            if (min < 0 && max < 0)
            {
                return null;
            }

            return new UserAgeRange(min, max);
        }

        public override string ToString()
        {
            return "UserAgeRange(Min: " + this.Min + ", Max: " + this.Max + ")";
        }
    }
}
