import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, which bounds its connections before any limit of ours does: past
/// it, `accept` fails, and the connections it leaves in the listen backlog wait there (NIO retries a
/// second later), with no message from the provider.
///
/// Raised by `limited-login serve` at start, not by the library: a process that embeds a provider (tests, an
/// app) owns its own limits.
public enum OpenFileLimit {
    /// Files the provider holds besides its connections: standard streams, the store's files, the
    /// listening socket, and a few per event loop.
    static let filesBesideConnections = 128

    /// Makes room for `connections` open connections, raising the soft limit towards the hard one when it
    /// is lower (as Go's runtime does at start: the soft limit is often 1,024 while the hard one is far
    /// higher); when the hard limit is too low as well, says so at warning.
    public static func makeRoom(forConnections connections: Int, logger: Logger) {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        let needed = rlim_t(connections + filesBesideConnections)
        guard limit.rlim_cur < needed else { return }
        var raised = limit
        raised.rlim_cur = min(needed, limit.rlim_max)
        if raised.rlim_cur > limit.rlim_cur, setrlimit(resource, &raised) == 0 {
            limit = raised
        }
        guard limit.rlim_cur < needed else { return }
        logger.warning(
            "The open-file limit (\(limit.rlim_cur)) leaves room for fewer than the maximum of \(connections) connections; raise it (ulimit -n) or lower serve --max-connections.",
            metadata: ["maximum": "\(connections)", "open_file_limit": "\(limit.rlim_cur)"]
        )
    }
}
