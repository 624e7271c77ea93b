import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP client, to hold a request open half-sent across a shutdown.
struct RawConnection {
    let descriptor: Int32

    init?(port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    /// Reads until the peer closes (or 10 s pass).
    func readAll() -> String {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    func disconnect() { Glibc.close(descriptor) }
}

@Suite("Graceful shutdown")
struct GracefulShutdownTests {
    @Test("SIGTERM: new connections are refused, the request in flight is answered, then the process exits 0")
    func inFlightRequestFinishes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = try await ServerProcess.start(["--port", "0", "--database", "shutdown.sqlite"], directory: folder)
        let port = try #require(URLComponents(string: server.baseURL)?.port)

        let body = "email=alice%40example.com&pass=password&request=x&csrf_token=y"
        let connection = try #require(RawConnection(port: port))
        connection.send(
            "POST /dialog/oauth/signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        )
        connection.send(String(body.prefix(10)))
        try await Task.sleep(for: .milliseconds(200))

        await server.signal(SIGTERM)
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.isRunning, "the provider waits for the request in flight")
        #expect(RawConnection(port: port) == nil, "no new connection is accepted")

        connection.send(String(body.dropFirst(10)))
        let answer = connection.readAll()
        connection.disconnect()
        // The sign-in carries a made-up dialog request, so the dialog answers with its 400 page: the point
        // is that the whole answer arrives after the shutdown began.
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request"), "\(answer.prefix(200))")
        #expect(answer.contains("</html>"))
        for _ in 0..<100 where server.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.isRunning)
        #expect(server.exitStatus == 0)
    }
}
