import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an HTTP request could not be made, in words for people: what the network said, without type
/// names, errno numbers or the unbalanced parentheses of the underlying libraries' descriptions.
///
/// `connection reset (error set): Connection refused) (errno: 111)` becomes `connection refused`.
public enum TransportFailure {
    /// One clause (lower case, no full stop) for `error`, thrown by AsyncHTTPClient or SwiftNIO.
    public static func reason(_ error: any Error) -> String {
        if let error = error as? HTTPClientError { return reason(httpClientError: error) }
        if let error = error as? IOError { return reason(errno: error.errnoCode) }
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return reason(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "the host name \(error.host) could not be resolved" }
            return "no connection could be made to \(error.host):\(error.port)"
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return "the connection timed out"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed: return "the server closed the connection"
            default: return "the connection failed (\(error))"
            }
        }
        if error is CancellationError { return "the request was cancelled" }
        if let certificate = certificateProblem(error) { return certificate }
        if let error = error as? SocketAddressError {
            switch error {
            case .unknown(let host, _): return "the host name \(host) could not be resolved"
            default: return "the address is not valid (\(error))"
            }
        }
        return String(describing: error)
    }

    /// True when `error` says that nothing answered at the address: refused, unreachable, unresolvable or timed
    /// out while connecting (as opposed to a server that answered badly). Callers add a hint to start it.
    public static func isUnreachable(_ error: any Error) -> Bool {
        if let error = error as? IOError { return unreachableCodes.contains(error.errnoCode) }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.allSatisfy { isUnreachable($0.error) }
        }
        if let error = error as? HTTPClientError { return error == .connectTimeout || error == .getConnectionFromPoolTimeout }
        if case ChannelError.connectTimeout? = error as? ChannelError { return true }
        if error is SocketAddressError { return true }
        return false
    }

    private static let unreachableCodes: Set<Int32> = [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL]

    private static func reason(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "the connection was reset"
        case ETIMEDOUT: return "the connection timed out"
        case EHOSTUNREACH, ENETUNREACH: return "the host is unreachable"
        case EPIPE: return "the server closed the connection"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// What to do when the server's certificate was refused, in words, for the TLS library's errors (whose
    /// text names BoringSSL's internals and a build path); nil for any other error.
    static func certificateProblem(_ error: any Error) -> String? {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate is not signed by an authority trusted here (a provider started with --tls has its own: "
                + "give --ca-file FILE or set LIMITED_LOGIN_CA_FILE; 'limited-login ca export > ca.pem' writes it)"
        }
        if text.contains("failedToValidateHostname") || text.contains("unableToValidateCertificate") {
            return "the server's certificate is not for this host name"
        }
        if text.contains("handshakeFailed") {
            return "the TLS handshake failed (is it an https server, with a certificate this client accepts?)"
        }
        return nil
    }

    private static func reason(httpClientError error: HTTPClientError) -> String {
        switch error {
        case .connectTimeout: return "the connection timed out"
        case .readTimeout, .deadlineExceeded: return "no answer in time"
        case .remoteConnectionClosed: return "the server closed the connection before answering"
        case .invalidURL, .emptyHost, .emptyScheme: return "the URL is not valid"
        case .cancelled: return "the request was cancelled"
        case .bodyLengthMismatch: return "the answer's length does not match its Content-Length"
        case .getConnectionFromPoolTimeout: return "no connection could be made in time"
        case .uncleanShutdown: return "the connection ended uncleanly"
        default:
            if error.description.hasPrefix("HTTPClientError.unsupportedScheme") { return "the URL's scheme is not http or https" }
            return error.description.replacingOccurrences(of: "HTTPClientError.", with: "")
        }
    }
}
