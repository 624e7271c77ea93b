import Foundation

/// The dialog load of the benchmarks: `clients` threads (``ClientThreads``) spread evenly over the given
/// ports, sending the signed-in dialog request in a loop.
struct DialogLoad {
    var clients: Int
    var pipelineDepth: Int

    /// Tokens received per second over `seconds`, and the clients' CPU time. Every response must be a
    /// redirect carrying an ID token.
    func run(seconds: Double, ports: [Int], session: String) async throws -> ClientThreads.Result {
        let clients = self.clients
        let depth = self.pipelineDepth
        let requests = ports.map { port in
            Array("GET \(BenchProvider.dialogTarget) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: ll_session=\(session)\r\n\r\n".utf8)
        }
        return try await ClientThreads.run(
            clients: clients, seconds: seconds, ports: ports, requests: requests, depth: depth, headerName: "location"
        ) { response in
            response.status == 302 && response.header?.contains("#id_token=") == true
                ? nil : "the dialog answered \(response.status) without a token"
        }
    }
}
