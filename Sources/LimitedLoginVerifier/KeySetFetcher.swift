import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Why a key set or discovery document could not be fetched.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    case insecureURL(String)
    case redirectRefused(status: Int, location: String?)
    case httpStatus(Int)
    case tooLarge(limit: Int)
    case transport(String)
    /// Nothing answered: connection refused, host unreachable or unknown, connect timed out.
    case unreachable(String)
    case invalidDocument(String)

    public var description: String {
        switch self {
        case .insecureURL(let url):
            return "\(url) is not https (plain http is allowed only to a loopback address)"
        case .redirectRefused(let status, let location):
            return "the server answered \(status) redirecting to \(location ?? "nowhere"); redirects are not followed"
        case .httpStatus(let status): return "the server answered HTTP \(status)"
        case .tooLarge(let limit): return "the document is larger than \(limit) bytes"
        case .transport(let reason), .unreachable(let reason): return "the request failed: \(reason)"
        case .invalidDocument(let reason): return "the document is not valid: \(reason)"
        }
    }
}

/// Fetches small JSON documents (key sets, discovery) without following redirects.
///
/// A key set reached through a redirect is a key set chosen by whoever controls the redirect, so a 3xx
/// answer is a failure, not a hint.
struct DocumentFetcher: Sendable {
    var timeout: TimeAmount
    var maximumSize: Int

    /// - Parameter timeoutSeconds: bounded by ``boundedTimeout(_:)``, so no value can trap on conversion.
    init(timeoutSeconds: TimeInterval, maximumSize: Int) {
        self.timeout = .milliseconds(Int64(Self.boundedTimeout(timeoutSeconds) * 1000))
        self.maximumSize = maximumSize
    }

    /// A request timeout between 1 ms and 1 hour; NaN or infinity become 10 s.
    static func boundedTimeout(_ seconds: TimeInterval) -> TimeInterval {
        seconds.isFinite ? min(max(seconds, 0.001), 3600) : 10
    }

    static var client: HTTPClient { NonRedirectingHTTPClient.shared }

    struct Document {
        var body: [UInt8]
        var cacheControl: CacheControl
    }

    /// True when the URL is https, or http to a loopback host: `localhost`, `::1`, or an IPv4 address in
    /// 127.0.0.0/8 written as four decimal numbers (a name that merely begins with "127." is a name that DNS
    /// resolves, anywhere).
    static func isAcceptable(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http":
            let host = url.host?.lowercased() ?? ""
            return host == "localhost" || host == "::1" || host == "[::1]" || isIPv4Loopback(host)
        default: return false
        }
    }

    /// True for `127.a.b.c`, each part a decimal number from 0 to 255.
    static func isIPv4Loopback(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            (1...3).contains(part.utf8.count) && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                && (Int(part) ?? 256) <= 255
        }
    }

    func fetch(_ url: URL) async throws(FetchError) -> Document {
        guard Self.isAcceptable(url) else { throw .insecureURL(url.absoluteString) }
        guard url.hasUsablePort else { throw .unreachable("\(url.absoluteString): the port is not 1 to 65535") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do {
            response = try await Self.client.execute(request, timeout: timeout)
        } catch {
            if TransportFailure.isUnreachable(error) { throw .unreachable(TransportFailure.reason(error)) }
            throw .transport(TransportFailure.reason(error))
        }
        let status = Int(response.status.code)
        if (300..<400).contains(status) {
            throw .redirectRefused(status: status, location: response.headers.first(name: "Location"))
        }
        guard status == 200 else { throw .httpStatus(status) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: maximumSize)
        } catch is NIOTooManyBytesError {
            throw .tooLarge(limit: maximumSize)
        } catch {
            throw .transport(TransportFailure.reason(error))
        }
        return Document(
            body: Array(body.readableBytesView),
            cacheControl: CacheControl(headerValues: response.headers["Cache-Control"])
        )
    }
}
