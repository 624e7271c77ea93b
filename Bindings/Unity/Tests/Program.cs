namespace LimitedLogin.UnityBindingTests
{
    using System;
    using System.IO;

    /// <summary>
    /// The C# binding's test program, run by <c>scripts/unity</c> under Mono inside
    /// <c>limited-login serve --exec</c> (the provider's URL in <c>LIMITED_LOGIN_URL</c>), twice:
    /// <c>first STATE_FILE</c> logs in, cancels, fails and logs out, and ends signed in as Alice;
    /// <c>restart STATE_FILE</c>, a new process, finds Alice's session restored from the file, then logs out.
    /// Exits 0 when every expectation held, 1 at the first that did not.
    /// </summary>
    internal static class Program
    {
        /// <summary>The app of <c>fixtures.json</c>.</summary>
        internal const string AppId = "424242424242";

        private static int Main(string[] args)
        {
            if (args.Length != 2 || (args[0] != "first" && args[0] != "restart"))
            {
                Console.Error.WriteLine("usage: UnityBindingTests.exe first|restart STATE_FILE");
                return 2;
            }

            string providerText = Environment.GetEnvironmentVariable("LIMITED_LOGIN_URL");
            if (string.IsNullOrEmpty(providerText))
            {
                Console.Error.WriteLine("UnityBindingTests: LIMITED_LOGIN_URL is not set (run it inside limited-login serve --exec)");
                return 2;
            }

            var provider = new Uri(providerText);
            string stateFile = args[1];
            string expectedFile = stateFile + ".expected";
            try
            {
                if (args[0] == "first")
                {
                    FirstRunTests.Run(provider, stateFile, expectedFile);
                }
                else
                {
                    RestartTests.Run(provider, stateFile, expectedFile);
                }
            }
            catch (CheckFailure failure)
            {
                Console.WriteLine("FAIL: " + failure.Message);
                Console.WriteLine("unity: " + Check.Passed + " passed, 1 failed");
                return 1;
            }
            catch (Exception exception)
            {
                Console.WriteLine("FAIL: unexpected " + exception);
                Console.WriteLine("unity: " + Check.Passed + " passed, 1 failed");
                return 1;
            }

            Console.WriteLine("unity " + args[0] + ": " + Check.Passed + " passed, 0 failed");
            return 0;
        }
    }
}
