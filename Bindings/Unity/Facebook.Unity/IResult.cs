namespace Facebook.Unity
{
    using System.Collections.Generic;

    /// <summary>What every request's result says, as in the Unity SDK.</summary>
    public interface IResult
    {
        /// <summary>The error message, or null when the request did not fail.</summary>
        string Error { get; }

        /// <summary>The error as a dictionary when the message is itself a JSON object, else null.</summary>
        IDictionary<string, string> ErrorDictionary { get; }

        /// <summary>The result's members as the native library sent them.</summary>
        IDictionary<string, object> ResultDictionary { get; }

        /// <summary>The result's JSON text as the native library sent it.</summary>
        string RawResult { get; }

        /// <summary>True when the person cancelled.</summary>
        bool Cancelled { get; }
    }
}
