namespace LimitedLogin.UnityBindingTests
{
    using System;
    using System.Collections.Generic;
    using System.Linq;

    /// <summary>A failed expectation: the test program stops and exits with status 1.</summary>
    internal sealed class CheckFailure : Exception
    {
        internal CheckFailure(string message)
            : base(message)
        {
        }
    }

    /// <summary>Expectations that throw <see cref="CheckFailure"/> naming what was expected and what was found.</summary>
    internal static class Check
    {
        /// <summary>How many expectations held.</summary>
        internal static int Passed { get; private set; }

        internal static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
            {
                throw new CheckFailure(what + ": expected <" + Show(expected) + ">, found <" + Show(actual) + ">");
            }

            Passed++;
        }

        internal static void True(bool condition, string what)
        {
            if (!condition)
            {
                throw new CheckFailure(what);
            }

            Passed++;
        }

        internal static void Null(object value, string what)
        {
            if (value != null)
            {
                throw new CheckFailure(what + ": expected null, found <" + value + ">");
            }

            Passed++;
        }

        internal static T NotNull<T>(T value, string what) where T : class
        {
            if (value == null)
            {
                throw new CheckFailure(what + ": expected a value, found null");
            }

            Passed++;
            return value;
        }

        internal static void Sequence(IEnumerable<string> expected, IEnumerable<string> actual, string what)
        {
            if (actual == null || !expected.SequenceEqual(actual))
            {
                throw new CheckFailure(what + ": expected [" + string.Join(",", expected.ToArray()) + "], found ["
                    + (actual == null ? "null" : string.Join(",", actual.ToArray())) + "]");
            }

            Passed++;
        }

        /// <summary>Runs <paramref name="action"/> and expects a <see cref="Facebook.Unity.LimitedLoginException"/> with <paramref name="errorCode"/>.</summary>
        internal static Facebook.Unity.LimitedLoginException Throws(string errorCode, Action action, string what)
        {
            try
            {
                action();
            }
            catch (Facebook.Unity.LimitedLoginException exception)
            {
                Equal(errorCode, exception.ErrorCode, what + " (error code; message: " + exception.Message + ")");
                return exception;
            }

            throw new CheckFailure(what + ": expected LimitedLoginException " + errorCode + ", nothing was thrown");
        }

        private static string Show(object value)
        {
            return value == null ? "null" : value.ToString();
        }
    }
}
