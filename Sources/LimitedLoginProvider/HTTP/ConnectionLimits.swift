/// Bounds on the provider's HTTP connections, so that slow, idle or too many clients cannot hold
/// connections (and the memory behind each one) open for as long as they like.
///
/// Every connection is always waiting for exactly one thing, and each wait has its own limit:
/// - a request head (request line and headers), from its first byte, or from the connection's opening
///   for its first request: ``headerTimeout``, whatever rate the bytes come at, so a client that sends one
///   byte a second is cut all the same;
/// - a request body, from the end of its head: ``bodyTimeout``;
/// - the next request on a keep-alive connection, from the end of the last answer: ``idleTimeout``.
///
/// While the provider is answering a request there is no limit: that time is the provider's, not the client's.
/// Connections beyond ``maximumConnections`` are closed as soon as they are accepted.
///
/// The defaults let a slow real client through: a browser, an app on a poor mobile network, or a client's
/// connection pool never comes near them.
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a request head may take to arrive. Default 30 s: a real client sends its head in one
    /// packet, and 30 s leaves room for several TCP retransmissions on a bad network.
    public var headerTimeout: Duration
    /// How long an open connection may go without a new request after an answer. Default 75 s: longer
    /// than the 60 s that HTTP client pools (AsyncHTTPClient's, for one) keep an idle connection, so such a
    /// client normally closes first and never sends a request on a connection the provider is closing.
    public var idleTimeout: Duration
    /// How long a request body may take to arrive, from the end of its head. Default 30 s: the largest
    /// body the provider accepts (64 KiB) still arrives at about 2 KB/s, slower than GPRS.
    public var bodyTimeout: Duration
    /// The most connections open at once. Default 1,000: under the usual limit of 1,024 open files per
    /// process, with room for the store's files; with the timeouts above, that many connections cost a few
    /// tens of megabytes at most.
    public var maximumConnections: Int
    /// The most connections one client address may hold at once, so that one client cannot take every
    /// connection (a greedy or broken client, a connection flood). nil, the default: a quarter of
    /// `maximumConnections`, at least 16 (or the maximum, when that is lower); 250 of the default 1,000.
    /// Behind a reverse proxy every connection comes from the proxy's address: raise it to the maximum there.
    public var maximumConnectionsPerAddress: Int?
    /// The per-address share served: the one given (at most the maximum), else the default.
    var servedPerAddress: Int {
        let maximum = served.maximumConnections
        if let given = maximumConnectionsPerAddress, given >= 1 { return min(given, maximum) }
        return max(min(maximum, 16), maximum / 4)
    }
    /// The shortest time between two log lines about refused connections (tests shorten it).
    var refusalLogInterval: Duration = .seconds(60)

    /// - Parameters:
    ///   - headerTimeout: How long a request head may take to arrive (from its first byte, or from the
    ///     connection's opening for the first request).
    ///   - idleTimeout: How long an open connection may go without a new request after an answer.
    ///   - bodyTimeout: How long a request body may take to arrive, from the end of its head.
    ///   - maximumConnections: The most connections open at once.
    ///   - maximumConnectionsPerAddress: The most one client address may hold (nil: a quarter of the maximum,
    ///     at least 16).
    ///
    /// A timeout of zero or less, or a maximum under 1, is served as the default.
    public init(
        headerTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(75),
        bodyTimeout: Duration = .seconds(30),
        maximumConnections: Int = 1000,
        maximumConnectionsPerAddress: Int? = nil
    ) {
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
    }

    /// The limits as served. A timeout of zero or less, or a maximum under 1, would turn every connection
    /// away, which no one means: such a value is taken as unset and the default is served instead
    /// (`serve` refuses them with a message).
    var served: ConnectionLimits {
        let defaults = ConnectionLimits()
        var limits = self
        if headerTimeout <= .zero { limits.headerTimeout = defaults.headerTimeout }
        if idleTimeout <= .zero { limits.idleTimeout = defaults.idleTimeout }
        if bodyTimeout <= .zero { limits.bodyTimeout = defaults.bodyTimeout }
        if maximumConnections < 1 { limits.maximumConnections = defaults.maximumConnections }
        return limits
    }
}
