import Foundation
import Hummingbird
import LimitedLoginJOSE

/// `GET|POST /_admin/clock`: the provider's time, which tests move (docs/BEHAVIOUR.md, section 9).
/// `{"advance": SECONDS}`, `{"set": EPOCH}` or `{"reset": true}`; `"force": true` lets the clock go back
/// before tokens it already issued.
struct AdminClockController: Sendable {
    let services: ProviderServices
    var operations: AdminOperations { AdminOperations(services: services) }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/clock") { _, _ in try Responses.json(operations.clockState()) }
        router.post("/_admin/clock") { request, _ in
            let asked = try await AdminJSONBody.decode(
                ClockMoveRequest.self, accepting: ClockMoveRequest.keys, fromOptional: request, limit: services.configuration.maximumBodySize)
            return try Responses.json(try await operations.moveClock(asked.move, force: asked.force))
        }
    }
}
