namespace Facebook.Unity
{
    using System.Collections.Generic;

    /// <summary>
    /// For tests and CI (not in the Unity SDK): a person the native library plays on the provider's real
    /// dialog pages instead of the system browser. See <see cref="FB.Testing.UseScriptedPerson"/>.
    /// </summary>
    public sealed class ScriptedPerson
    {
        /// <summary>Signs in as the test user <paramref name="email"/>: with <paramref name="password"/>, or by picking them on the sign-in page when it is null.</summary>
        public ScriptedPerson(string email, string password = null)
        {
            this.Email = email;
            this.Password = password;
            this.Untick = new List<string>();
        }

        public string Email { get; private set; }

        /// <summary>The password to type; null picks the test user on the sign-in page.</summary>
        public string Password { get; private set; }

        /// <summary>Permissions the person unticks on the consent page.</summary>
        public IList<string> Untick { get; private set; }

        /// <summary>True: the person presses Cancel on the consent page.</summary>
        public bool Cancels { get; set; }
    }
}
