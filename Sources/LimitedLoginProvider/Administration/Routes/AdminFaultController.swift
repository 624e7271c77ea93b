import Hummingbird
import LimitedLoginJOSE

/// `POST|GET|DELETE /_admin/faults`: faults on the key endpoints and the Graph API (``EndpointFault``).
///
/// `POST {"endpoints": "keys", "status": 500, "count": 3}` (or `"answer": "empty" | "html" | "malformed" |
/// "rotated"`, `"delay": seconds`, `"seconds": how long`) → 201 with the fault; `GET` lists the live ones;
/// `DELETE` removes them all.
struct AdminFaultController: Sendable {
    let services: ProviderServices

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/faults") { request, _ in list() }
        router.post("/_admin/faults") { request, _ in try await add(request) }
        router.delete("/_admin/faults") { request, _ in
            let removed = services.faults.clear()
            if removed > 0 { services.logger.notice("endpoint faults cleared", metadata: ["removed": "\(removed)"]) }
            return try Responses.json(["removed": removed])
        }
    }

    private func list() -> Response {
        let now = EndpointFaults.now()
        return Responses.json(.object(["faults": .array(services.faults.all.map { $0.json(now: now) })]))
    }

    private func add(_ request: Request) async throws -> Response {
        let body: JSONObject
        switch await AdminJSONBody.read(request, limit: services.configuration.maximumBodySize) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let object): body = object
        }
        var asked: EndpointFaultRequest
        switch EndpointFaultRequest.parse(body) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let parsed): asked = parsed
        }
        if asked.answer == .rotated {
            asked.rotatedDocuments = try await RotatedKeyDocuments.make(commonName: services.keyring.certificateCommonName)
        }
        guard let fault = services.faults.add(asked) else {
            throw AdminError.conflict("\(EndpointFaults.capacity) faults are held already; clear them first.")
        }
        services.logger.notice(
            "endpoint fault set",
            metadata: [
                "fault": "\(fault.id)", "endpoints": "\(fault.endpoints.sorted().map(\.rawValue).joined(separator: ","))",
                "answer": "\(fault.answer.name)", "delay": "\(fault.delay)",
            ])
        return Responses.json(fault.json(now: EndpointFaults.now()), status: .created)
    }
}
