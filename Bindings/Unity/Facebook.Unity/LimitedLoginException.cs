namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;

    /// <summary>
    /// A call the native library refused, with its <c>error_code</c> (<c>not_initialized</c>,
    /// <c>invalid_app_id</c>, …; the list is in <c>limited_login_native.h</c>) and its message.
    /// </summary>
    public class LimitedLoginException : Exception
    {
        public LimitedLoginException(string errorCode, string message)
            : base(message)
        {
            this.ErrorCode = errorCode;
        }

        /// <summary>The library's name for the error.</summary>
        public string ErrorCode { get; private set; }

        /// <summary>Throws when <paramref name="members"/> is an error result (<c>error</c>, <c>error_code</c>).</summary>
        internal static void ThrowIfError(IDictionary<string, object> members)
        {
            string message = JsonReader.StringMember(members, "error");
            if (message != null)
            {
                throw new LimitedLoginException(JsonReader.StringMember(members, "error_code"), message);
            }
        }
    }
}
