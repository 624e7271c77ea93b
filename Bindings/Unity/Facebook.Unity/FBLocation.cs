namespace Facebook.Unity
{
    using System.Collections.Generic;

    /// <summary>A place: a hometown or a current location.</summary>
    public class FBLocation
    {
        internal FBLocation(string id, string name)
        {
            this.ID = id;
            this.Name = name;
        }

        /// <summary>The place's ID.</summary>
        public string ID { get; private set; }

        /// <summary>The place's name.</summary>
        public string Name { get; private set; }

        /// <summary>Reads <c>{prefix}_id</c> and <c>{prefix}_name</c>; null unless both are there.</summary>
        internal static FBLocation FromDictionary(string prefix, IDictionary<string, object> members)
        {
            string id = JsonReader.StringMember(members, prefix + "_id");
            string name = JsonReader.StringMember(members, prefix + "_name");
            if (id == null || name == null)
            {
                return null;
            }

            return new FBLocation(id, name);
        }

        public override string ToString()
        {
            return "FBLocation(ID: " + this.ID + ", Name: " + this.Name + ")";
        }
    }
}
