import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `--trusted-proxy` value cannot be used.
public struct TrustedProxyError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// The proxies whose word on a request's client address is taken (`serve --trusted-proxy CIDR`, repeatable).
///
/// Behind a proxy every request arrives from the proxy's address, so every per-address rule (failed sign-ins,
/// wrong admin tokens) would count all clients as one, and one client could lock out all. When the connection's
/// peer is one of these, the client is read from `X-Forwarded-For` (or, without it, `Forwarded: for=`): the
/// rightmost address that is not itself a trusted proxy, as each proxy appends the address it was reached
/// from. From any other peer those headers are ignored (a client chooses its headers), and a header that does
/// not end in a readable address leaves the peer's address.
public struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        let network: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == network.count else { return false }
            var remaining = prefixLength
            for (given, wanted) in zip(address, network) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if given & mask != wanted & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    let ranges: [Range]

    /// No proxy is trusted: the connection's address is the client's (the default).
    public static let none = TrustedProxies(ranges: [])

    init(ranges: [Range]) { self.ranges = ranges }

    /// Ranges as `10.0.0.0/8`, `192.0.2.7` (one address), `fd00::/8` or `::1`; a value may hold several,
    /// separated by commas (as one environment variable gives them).
    public init(_ values: [String]) throws(TrustedProxyError) {
        var ranges: [Range] = []
        for value in values.flatMap({ $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }) {
            let parts = value.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let network = Self.bytes(of: String(parts[0])) else {
                throw TrustedProxyError(
                    description: "\"\(value.prefix(100))\" is not an address or a CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, ::1/128)")
            }
            let width = network.count * 8
            var length = width
            if parts.count == 2 {
                guard let given = Int(parts[1]), (0...width).contains(given) else {
                    throw TrustedProxyError(description: "\"\(value.prefix(100))\" has a prefix length that is not 0 to \(width)")
                }
                length = given
            }
            ranges.append(Range(network: network, prefixLength: length))
        }
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    func contains(_ address: [UInt8]) -> Bool { ranges.contains { $0.contains(address) } }

    /// The client's address for a request from `peer` with these header values (`X-Forwarded-For` and
    /// `Forwarded`, each as many times as they came), or `peer` when it is no trusted proxy or the headers say
    /// nothing readable.
    func client(peer: SocketAddress?, forwardedFor: [String], forwarded: [String]) -> SocketAddress? {
        guard !isEmpty, let peer, let peerText = peer.ipAddress, let peerBytes = Self.bytes(of: peerText), contains(peerBytes) else {
            return peer
        }
        var chain = forwardedFor.flatMap { $0.split(separator: ",").map { String($0) } }
        if chain.isEmpty { chain = forwarded.flatMap(Self.forwardedFor) }
        // From the nearest hop back: each trusted proxy names the one before it.
        for entry in chain.reversed() {
            guard let text = Self.address(inEntry: entry), let bytes = Self.bytes(of: text) else { return peer }
            if contains(bytes) { continue }
            return try? SocketAddress(ipAddress: text, port: 0)
        }
        return peer
    }

    /// The `for=` values of a `Forwarded` header (RFC 7239), nearest last.
    static func forwardedFor(_ header: String) -> [String] {
        header.split(separator: ",").compactMap { element in
            element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.lowercased().hasPrefix("for=") }.map { String($0.dropFirst(4)) }
        }
    }

    /// The address in one hop of a chain: quotes, brackets and a port taken off (`"[2001:db8::1]:4711"`,
    /// `192.0.2.60:8080`); nil when nothing is left.
    static func address(inEntry entry: String) -> String? {
        var text = entry.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") { return String(text[text.index(after: text.startIndex)..<end]) }
        // One colon: an IPv4 address with its port.
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { text = String(text[..<colon]) }
        return text.isEmpty ? nil : text
    }

    /// An address's bytes: 4 for IPv4, 16 for IPv6 (an IPv4-mapped IPv6 address is its IPv4 address).
    static func bytes(of text: String) -> [UInt8]? {
        guard text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}
