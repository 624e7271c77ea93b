import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where app callbacks may be posted (docs/SECURITY.md): not to the provider's own network. A callback URL
/// naming a private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local (169.254/16, fe80::/10),
/// unspecified, multicast or broadcast address is refused, in any spelling the system's parsers take
/// (`127.1`, `2130706433`, `0x7f.1`, `::ffff:10.0.0.1`), and so is a host name that resolves to one. Loopback
/// is allowed only as the test receivers use it: `127.0.0.1`, `[::1]` or `localhost` on a port from 1024.
/// `serve --allow-private-callbacks` turns the rule off (a provider posting to services on a private network).
enum CallbackAddressPolicy {
    static let refusal =
        "names a private, link-local, loopback or unspecified address (loopback only as http://127.0.0.1, [::1] or localhost on a port from 1024; serve --allow-private-callbacks allows the others)"

    /// Why the URL's host may not be posted to, judged from its spelling alone, or nil. A name other than
    /// `localhost` passes here and is judged when it is resolved (``resolvedProblem(host:)``).
    static func problem(url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return refusal }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        if ["127.0.0.1", "::1", "localhost"].contains(bare) { return port >= 1024 ? nil : refusal }
        if bare == "localhost." || bare.hasSuffix(".localhost") { return refusal }
        guard let address = Address(literal: bare) else { return nil }
        return address.isPublic ? nil : refusal
    }

    /// Why a host name may not be posted to once resolved: any of its addresses not public. Read off the event
    /// loop (the system's resolver blocks).
    static func resolvedProblem(host: String) async -> String? {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if ["127.0.0.1", "::1", "localhost"].contains(bare.lowercased()) || Address(literal: bare) != nil { return nil }
        let addresses = await OffEventLoop.run { Address.resolve(bare) }
        return addresses.allSatisfy(\.isPublic) ? nil : refusal
    }

    /// An IPv4 or IPv6 address.
    enum Address: Equatable {
        case v4(UInt32)
        case v6([UInt8])

        /// The address a literal spells: IPv6 as `inet_pton` reads it, IPv4 as `inet_aton` does (which takes the
        /// short, decimal, octal and hexadecimal spellings a URL parser or a resolver may also take).
        init?(literal: String) {
            var v6 = in6_addr()
            if literal.contains(":") {
                guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
                self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
                return
            }
            guard literal.first.map({ $0.isNumber }) == true else { return nil }
            var v4 = in_addr()
            guard inet_aton(literal, &v4) != 0 else { return nil }
            self = .v4(UInt32(bigEndian: v4.s_addr))
        }

        /// Whether the address is on the public internet (none of the ranges above).
        var isPublic: Bool {
            switch self {
            case .v4(let value):
                let ranges: [(UInt32, Int)] = [
                    (0x0000_0000, 8), (0x0A00_0000, 8), (0x6440_0000, 10), (0x7F00_0000, 8), (0xA9FE_0000, 16), (0xAC10_0000, 12),
                    (0xC0A8_0000, 16), (0xE000_0000, 4), (0xF000_0000, 4),
                ]
                return !ranges.contains { base, bits in value >> UInt32(32 - bits) == base >> UInt32(32 - bits) }
            case .v6(let bytes):
                if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                    let v4 = bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                    return Address.v4(v4).isPublic
                }
                if bytes.allSatisfy({ $0 == 0 }) || bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return false }
                if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7, unique local
                if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10, link-local
                if bytes[0] == 0xFF { return false }  // multicast
                return true
            }
        }

        /// Every address the system resolves a name to (none when it cannot).
        static func resolve(_ name: String) -> [Address] {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(first) }
            var found: [Address] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                if let socketAddress = current.pointee.ai_addr {
                    switch Int32(current.pointee.ai_family) {
                    case AF_INET:
                        let v4 = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
                        found.append(.v4(UInt32(bigEndian: v4)))
                    case AF_INET6:
                        var v6 = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                        found.append(.v6(withUnsafeBytes(of: &v6) { Array($0) }))
                    default: break
                    }
                }
                entry = current.pointee.ai_next
            }
            return found
        }
    }
}
