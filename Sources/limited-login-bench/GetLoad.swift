import Foundation

/// A load of GET requests for one path: `clients` threads (``ClientThreads``) sending the same request in a
/// loop for a while.
struct GetLoad {
    var clients: Int

    /// Requests answered per second over `seconds`; every answer must have status `expectedStatus`.
    func run(seconds: Double, port: Int, path: String, expectedStatus: Int = 200) async throws -> Double {
        let clients = self.clients
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        return try await ClientThreads.run(clients: clients, seconds: seconds, ports: [port], requests: [request], headerName: "etag") { response in
            response.status == expectedStatus ? nil : "\(path) answered \(response.status)"
        }.rate
    }
}
