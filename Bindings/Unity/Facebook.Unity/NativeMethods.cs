namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;
    using System.Runtime.InteropServices;
    using System.Text;

    /// <summary>
    /// The C library (<c>libLimitedLoginNative</c>, <c>limited_login_native.h</c>) through P/Invoke.
    /// Strings go in as NUL-terminated UTF-8 and come back as pointers this class copies and then gives
    /// back to <c>LLFBFreeString</c>, so the library's memory is never released by the runtime's allocator.
    /// </summary>
    internal static class NativeMethods
    {
        /// <summary>The library's name: <c>libLimitedLoginNative.so</c> on Linux, <c>.dylib</c> on macOS.</summary>
        internal const string Library = "LimitedLoginNative";

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void ResultCallback(int requestId, IntPtr resultJson, IntPtr context);

        /// <summary><c>LLFBInit</c>: the JSON it returns (<c>{}</c> or an error).</summary>
        internal static string Init(string appId, string provider, string stateFile)
        {
            return Take(LLFBInit(Utf8(appId), Utf8(provider), Utf8(stateFile)));
        }

        internal static void SetResultCallback(ResultCallback callback)
        {
            LLFBSetResultCallback(callback, IntPtr.Zero);
        }

        internal static string LoginWithTrackingPreference(int requestId, string scope, string tracking, string nonce)
        {
            return Take(LLFBLoginWithTrackingPreference(requestId, Utf8(scope), Utf8(tracking), Utf8(nonce)));
        }

        internal static string LogOut()
        {
            return Take(LLFBLogOut());
        }

        internal static string CurrentAuthenticationToken()
        {
            return Take(LLFBCurrentAuthenticationToken());
        }

        internal static string CurrentProfile()
        {
            return Take(LLFBCurrentProfile());
        }

        internal static string CurrentAccessToken()
        {
            return Take(LLFBCurrentAccessToken());
        }

        internal static string UseScriptedPerson(string email, string password, string untick, bool cancel)
        {
            return Take(LLFBUseScriptedPerson(Utf8(email), Utf8(password), Utf8(untick), cancel ? 1 : 0));
        }

        internal static void UseSystemBrowser()
        {
            LLFBUseSystemBrowser();
        }

        /// <summary>Copies the NUL-terminated UTF-8 text at <paramref name="pointer"/> (which the library owns).</summary>
        internal static string Read(IntPtr pointer)
        {
            if (pointer == IntPtr.Zero)
            {
                return null;
            }

            var bytes = new List<byte>();
            for (int offset = 0; ; offset++)
            {
                byte value = Marshal.ReadByte(pointer, offset);
                if (value == 0)
                {
                    break;
                }

                bytes.Add(value);
            }

            return Encoding.UTF8.GetString(bytes.ToArray());
        }

        /// <summary>Copies a string the library returned and gives it back.</summary>
        private static string Take(IntPtr pointer)
        {
            if (pointer == IntPtr.Zero)
            {
                throw new OutOfMemoryException("the native library could not allocate its answer");
            }

            try
            {
                return Read(pointer);
            }
            finally
            {
                LLFBFreeString(pointer);
            }
        }

        /// <summary>NUL-terminated UTF-8, or null for a NULL argument.</summary>
        private static byte[] Utf8(string text)
        {
            if (text == null)
            {
                return null;
            }

            byte[] encoded = Encoding.UTF8.GetBytes(text);
            var terminated = new byte[encoded.Length + 1];
            Array.Copy(encoded, terminated, encoded.Length);
            return terminated;
        }

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBInit(byte[] appId, byte[] provider, byte[] stateFile);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern void LLFBSetResultCallback(ResultCallback callback, IntPtr context);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBLoginWithTrackingPreference(int requestId, byte[] scope, byte[] tracking, byte[] nonce);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBLogOut();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBCurrentAuthenticationToken();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBCurrentProfile();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBCurrentAccessToken();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern void LLFBFreeString(IntPtr text);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern IntPtr LLFBUseScriptedPerson(byte[] email, byte[] password, byte[] untick, int cancel);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        private static extern void LLFBUseSystemBrowser();
    }
}
