#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 keep-alive client over one loopback TCP connection, with pipelining.
///
/// The load generator shares the machine's cores with the server, so it is kept as cheap as it can be:
/// one preformatted request, one read loop, no parsing beyond the status, `Content-Length` and one
/// header. It only has to speak to this project's provider.
final class RawHTTPConnection {
    enum Failure: Error {
        case connect(Int32)
        case closed
        case malformed
    }

    struct Response {
        var status: Int
        var header: String?
    }

    private let socketDescriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(port: Int) throws {
        socketDescriptor = try Self.connectLoopback(port: port)
    }

    /// A blocking TCP connection to 127.0.0.1:`port` with Nagle off: its descriptor.
    static func connectLoopback(port: Int) throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.connect(errno) }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw Failure.connect(code)
        }
        return descriptor
    }

    deinit { close(socketDescriptor) }

    /// Bytes received but not yet consumed, `buffer[consumed..<received]`.
    private var received = 0
    private var consumed = 0

    /// Sends `request` (a whole HTTP/1.1 request) `depth` times back to back (HTTP/1.1 pipelining: the
    /// server answers them in order), then reads the `depth` responses; returns each status and the
    /// value of `headerName` (lowercase), if present.
    func exchange(_ request: [UInt8], depth: Int = 1, headerName: String) throws -> [Response] {
        let batch = depth == 1 ? request : Array([[UInt8]](repeating: request, count: depth).joined())
        var sent = 0
        while sent < batch.count {
            let written = batch.withUnsafeBytes { send(socketDescriptor, $0.baseAddress! + sent, batch.count - sent, 0) }
            guard written > 0 else { throw Failure.closed }
            sent += written
        }
        var responses: [Response] = []
        for _ in 0..<depth { responses.append(try readResponse(headerName: headerName)) }
        return responses
    }

    private func fill() throws {
        if consumed == received {
            consumed = 0
            received = 0
        } else if received == buffer.count {
            buffer.replaceSubrange(0..<(received - consumed), with: buffer[consumed..<received])
            received -= consumed
            consumed = 0
        }
        let count = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress! + received, $0.count - received, 0) }
        guard count > 0 else { throw Failure.closed }
        received += count
    }

    private func readResponse(headerName: String) throws -> Response {
        var headerEnd = Self.find([13, 10, 13, 10], in: buffer, from: consumed, upTo: received)
        while headerEnd == nil {
            try fill()
            headerEnd = Self.find([13, 10, 13, 10], in: buffer, from: consumed, upTo: received)
        }
        guard let headerEnd else { throw Failure.malformed }
        // Read in place, byte by byte: no string is made but the wanted header's value (this client shares
        // the cores with the server it measures, and splitting the head into strings cost several
        // microseconds per answer, more than the server spends on a static one).
        let wantedName = Array(headerName.utf8)
        let lineFeed = UInt8(ascii: "\n")
        let colon = UInt8(ascii: ":")
        let space = UInt8(ascii: " ")
        guard headerEnd - consumed >= 12 else { throw Failure.malformed }
        var status = 0
        for index in (consumed + 9)..<(consumed + 12) {
            let digit = Int(buffer[index]) - 48
            guard (0...9).contains(digit) else { throw Failure.malformed }
            status = status * 10 + digit
        }
        var contentLength = 0
        var wanted: String?
        var lineStart = consumed
        while buffer[lineStart] != lineFeed { lineStart += 1 }
        lineStart += 1
        while lineStart < headerEnd {
            var lineEnd = lineStart
            while lineEnd < headerEnd, buffer[lineEnd] != 13 { lineEnd += 1 }
            var nameEnd = lineStart
            while nameEnd < lineEnd, buffer[nameEnd] != colon { nameEnd += 1 }
            var valueStart = nameEnd + 1
            while valueStart < lineEnd, buffer[valueStart] == space { valueStart += 1 }
            if Self.nameEquals(buffer, lineStart, nameEnd, Self.contentLengthName) {
                contentLength = 0
                for index in valueStart..<lineEnd { contentLength = contentLength * 10 + Int(buffer[index]) - 48 }
            } else if Self.nameEquals(buffer, lineStart, nameEnd, wantedName), valueStart <= lineEnd {
                wanted = String(decoding: buffer[valueStart..<lineEnd], as: UTF8.self)
            }
            lineStart = lineEnd + 2
        }
        consumed = headerEnd + 4
        var remaining = contentLength
        while remaining > 0 {
            if consumed == received { try fill() }
            let take = min(remaining, received - consumed)
            consumed += take
            remaining -= take
        }
        return Response(status: status, header: wanted)
    }

    private static let contentLengthName = Array("content-length".utf8)

    /// True when `bytes[start..<end]` is `lowercaseName`, ignoring ASCII case.
    private static func nameEquals(_ bytes: [UInt8], _ start: Int, _ end: Int, _ lowercaseName: [UInt8]) -> Bool {
        guard end - start == lowercaseName.count else { return false }
        for offset in 0..<lowercaseName.count {
            var byte = bytes[start + offset]
            if byte >= 65, byte <= 90 { byte += 32 }
            if byte != lowercaseName[offset] { return false }
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, upTo end: Int) -> Int? {
        guard end - start >= needle.count else { return nil }
        for index in start...(end - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
