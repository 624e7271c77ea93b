namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;
    using System.Threading;

    /// <summary>
    /// Carries login results from the native library's thread to the thread that pumps them, where the
    /// <see cref="FacebookDelegate{T}"/> runs — in Unity, the main thread (call <see cref="Pump"/> from a
    /// MonoBehaviour's <c>Update</c>); in a console program, the thread that calls <see cref="WaitAndPump"/>.
    /// </summary>
    public static class ResultDispatcher
    {
        private static readonly object Gate = new object();
        private static readonly Queue<KeyValuePair<int, string>> Arrived = new Queue<KeyValuePair<int, string>>();
        private static readonly Dictionary<int, FacebookDelegate<ILoginResult>> Waiting = new Dictionary<int, FacebookDelegate<ILoginResult>>();
        private static int lastRequestId;

        /// <summary>Kept here so the runtime never collects the function the native library calls.</summary>
        private static readonly NativeMethods.ResultCallback NativeCallback = OnNativeResult;

        /// <summary>How many requests have not yet been answered through <see cref="Pump"/>.</summary>
        public static int PendingRequests
        {
            get
            {
                lock (Gate)
                {
                    return Waiting.Count;
                }
            }
        }

        /// <summary>Delivers every result that has arrived, on the calling thread, in order; returns how many.</summary>
        public static int Pump()
        {
            int delivered = 0;
            while (true)
            {
                KeyValuePair<int, string> next;
                FacebookDelegate<ILoginResult> callback;
                lock (Gate)
                {
                    if (Arrived.Count == 0)
                    {
                        return delivered;
                    }

                    next = Arrived.Dequeue();
                    Waiting.TryGetValue(next.Key, out callback);
                    Waiting.Remove(next.Key);
                }

                Deliver(next.Value, callback);
                delivered++;
            }
        }

        /// <summary>
        /// Waits until a result has arrived or <paramref name="timeout"/> has passed, then delivers what has
        /// arrived, on the calling thread; returns how many.
        /// </summary>
        public static int WaitAndPump(TimeSpan timeout)
        {
            DateTime deadline = DateTime.UtcNow + timeout;
            lock (Gate)
            {
                while (Arrived.Count == 0)
                {
                    TimeSpan left = deadline - DateTime.UtcNow;
                    if (left <= TimeSpan.Zero)
                    {
                        break;
                    }

                    Monitor.Wait(Gate, left);
                }
            }

            return Pump();
        }

        private static bool unloadHooked;

        /// <summary>
        /// Registers the native callback (once per <c>FB.Init</c>), and unregisters it when this domain unloads
        /// (a Unity domain reload): a login still running in the library must not call into a collected delegate.
        /// </summary>
        internal static void Attach()
        {
            NativeMethods.SetResultCallback(NativeCallback);
            lock (Gate)
            {
                if (unloadHooked)
                {
                    return;
                }

                unloadHooked = true;
            }

            AppDomain.CurrentDomain.DomainUnload += (sender, args) => NativeMethods.SetResultCallback(null);
        }

        /// <summary>A new request ID whose result goes to <paramref name="callback"/> (which may be null).</summary>
        internal static int Register(FacebookDelegate<ILoginResult> callback)
        {
            lock (Gate)
            {
                int requestId = ++lastRequestId;
                Waiting[requestId] = callback;
                return requestId;
            }
        }

        /// <summary>Queues a result for the next <see cref="Pump"/>; from any thread.</summary>
        internal static void Enqueue(int requestId, string result)
        {
            lock (Gate)
            {
                Arrived.Enqueue(new KeyValuePair<int, string>(requestId, result));
                Monitor.PulseAll(Gate);
            }
        }

        private static void OnNativeResult(int requestId, IntPtr resultJson, IntPtr context)
        {
            // On the library's thread: copy the text (the library frees it when this returns) and queue it.
            // Nothing may escape into native code.
            try
            {
                Enqueue(requestId, NativeMethods.Read(resultJson) ?? string.Empty);
            }
            catch (Exception exception)
            {
                Console.Error.WriteLine("Facebook.Unity: a login result was lost: " + exception.Message);
            }
        }

        private static void Deliver(string raw, FacebookDelegate<ILoginResult> callback)
        {
            LoginResult result;
            try
            {
                result = new LoginResult(raw);
            }
            catch (FormatException exception)
            {
                result = new LoginResult(raw, "the native library's result cannot be read: " + exception.Message);
            }

            // As the Unity SDK: a classic login sets the current access token, a limited one clears it.
            if (result.AccessToken != null)
            {
                AccessToken.CurrentAccessToken = result.AccessToken;
            }
            else if (result.AuthenticationToken != null)
            {
                AccessToken.CurrentAccessToken = null;
            }

            if (callback != null)
            {
                callback(result);
            }
        }
    }
}
