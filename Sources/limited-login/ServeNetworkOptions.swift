import ArgumentParser
import LimitedLoginProvider

/// `serve`'s network options: where it listens, the address clients reach it at, and the connection limits
/// (``ConnectionLimits``: slow, idle or too many clients cannot hold connections open).
struct ServeNetworkOptions: ParsableArguments {
    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(
        name: .customLong("public-url"),
        help: "The URL apps and browsers reach the provider at, when it is behind a proxy (default: http://HOST:PORT).")
    var publicURL: String?

    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp(
            "Seconds a request head may take to arrive, from its first byte (from the connection's opening for the first request), whatever the byte rate.",
            valueName: "seconds"))
    var headerTimeout = Int(ConnectionLimits().headerTimeout.components.seconds)

    @Option(
        name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a keep-alive connection may wait for its next request.", valueName: "seconds"))
    var idleTimeout = Int(ConnectionLimits().idleTimeout.components.seconds)

    @Option(
        name: .customLong("body-timeout"),
        help: ArgumentHelp("Seconds a request body may take to arrive, from the end of its head.", valueName: "seconds"))
    var bodyTimeout = Int(ConnectionLimits().bodyTimeout.components.seconds)

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp("The most connections open at once; more are closed as soon as they are accepted.", valueName: "count"))
    var maxConnections = ConnectionLimits().maximumConnections

    @Option(
        name: .customLong("max-connections-per-address"),
        help: ArgumentHelp(
            "The most connections one client address may hold, so one client cannot lock the others out (default: a quarter of --max-connections, at least 16). Behind a reverse proxy, set it to --max-connections.",
            valueName: "count"
        )
    )
    var maxConnectionsPerAddress: Int?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy in front of the provider whose X-Forwarded-For (or Forwarded) names the client for the per-address limits (failed sign-ins, wrong admin tokens): an address or a CIDR range, e.g. 10.0.0.0/8 (repeat, or separate with commas). From any other peer those headers are ignored.",
            valueName: "cidr"))
    var trustedProxies: [String] = []

    @Flag(
        name: .customLong("allow-private-callbacks"),
        help:
            "Let apps' callback URLs name private, link-local and any loopback address (by default only the public internet, and http://127.0.0.1, [::1] or localhost on a port from 1024 for test receivers)."
    )
    var allowPrivateCallbacks = false

    /// The trusted proxies the options name, or the first one that cannot be read.
    var proxies: TrustedProxies {
        get throws {
            do { return try TrustedProxies(trustedProxies) } catch { throw ValidationError("--trusted-proxy: \(error.description).") }
        }
    }

    /// The limits the options give, or the first one out of range.
    var connectionLimits: ConnectionLimits {
        get throws {
            for (flag, seconds) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout)]
            where !(1...86400).contains(seconds) {
                throw ValidationError("\(flag) must be between 1 and 86400 seconds.")
            }
            guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be between 1 and 1000000.") }
            if let maxConnectionsPerAddress, !(1...maxConnections).contains(maxConnectionsPerAddress) {
                throw ValidationError("--max-connections-per-address must be between 1 and --max-connections (\(maxConnections)).")
            }
            return ConnectionLimits(
                headerTimeout: .seconds(headerTimeout), idleTimeout: .seconds(idleTimeout), bodyTimeout: .seconds(bodyTimeout),
                maximumConnections: maxConnections, maximumConnectionsPerAddress: maxConnectionsPerAddress
            )
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) {
            throw ValidationError("--public-url must start with http:// or https://.")
        }
        _ = try connectionLimits
        _ = try proxies
    }
}
