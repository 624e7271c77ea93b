/// CPU work too long to run on a connection's event loop: a password hash (PBKDF2, a few milliseconds at
/// the default rounds and seconds for an imported hash with millions) and an RSA key generation (about a
/// tenth of a second).
///
/// A connection's task runs on its event loop (``EventLoopTaskExecutor``), and whatever it computes there
/// holds up the loop's other connections until it is done. This runs `work` on Swift's global concurrent
/// pool instead, which requests no longer use, and comes back to the loop with the result. A signature
/// (half a millisecond, on every token) stays on the loop: the two thread switches would cost more than the
/// wait they spare.
enum OffEventLoop {
    static func run<T: Sendable, Failure: Error>(_ work: @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        try await withTaskExecutorPreference(globalConcurrentExecutor) { () async throws(Failure) -> T in
            try work()
        }
    }
}
