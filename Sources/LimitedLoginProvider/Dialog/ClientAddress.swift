import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The address of the connection a request arrived on, which the sign-in limits count failures by.
///
/// Taken from the socket, never from a header a client chooses: only a trusted proxy's (`serve
/// --trusted-proxy`) `X-Forwarded-For` or `Forwarded` is read (``of(_:trusting:)``). Hummingbird's
/// `BasicRequestContext` does not keep the channel, so the provider's connections (``BoundedHTTP1Channel``)
/// make theirs a task-local value, once per connection, around the task that answers its requests; routes
/// read ``current``, which reads the address from it only then (formatting an address for every request,
/// static endpoints included, cost more than the rest of answering one of those).
enum ClientAddress {
    /// The channel of the request being answered (nil outside one).
    @TaskLocal static var channel: (any Channel)?

    /// The current request's client address, as a key: an IPv4 address, or the /64 prefix of an IPv6
    /// address (one host usually holds a whole /64, so counting by full address would be no limit);
    /// nil when the connection has no IP address (tests through the router alone).
    static var current: String? { channel.flatMap { key(for: $0.remoteAddress) } }

    /// The client address of `request`, as a key: the connection's, or, when the connection comes from one of
    /// the `trusted` proxies, the client those proxies name (``TrustedProxies``).
    static func of(_ request: Request, trusting trusted: TrustedProxies) -> String? {
        guard let channel else { return nil }
        guard !trusted.isEmpty else { return key(for: channel.remoteAddress) }
        let client = trusted.client(
            peer: channel.remoteAddress, forwardedFor: request.headers[values: forwardedFor], forwarded: request.headers[values: forwarded])
        return key(for: client)
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!

    static func key(for address: SocketAddress?) -> String? {
        switch address {
        case .v4?:
            return address?.ipAddress
        case .v6(let v6)?:
            var raw = v6.address.sin6_addr
            let bytes = withUnsafeBytes(of: &raw) { Array($0) }
            guard bytes.count == 16 else { return address?.ipAddress }
            // An IPv4 client on a dual-stack socket (::ffff:a.b.c.d) is that IPv4 address.
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":") + "::/64"
        default:
            return nil
        }
    }
}
