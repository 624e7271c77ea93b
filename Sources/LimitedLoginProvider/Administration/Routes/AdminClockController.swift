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
            let (move, force) = try Self.move(try await AdminJSONBody.object(request, limit: services.configuration.maximumBodySize))
            return try Responses.json(try await operations.moveClock(move, force: force))
        }
    }

    /// `{"advance": SECONDS}`, `{"set": EPOCH}` or `{"reset": true}`, and `"force"`.
    static func move(_ body: JSONObject) throws(AdminError) -> (ClockMove, force: Bool) {
        if let message = body.unknownKeyMessage(accepted: ["advance", "set", "reset", "force"]) { throw AdminError.badRequest(message) }
        let force = body["force"]?.boolValue ?? false
        let actions = ["advance", "set", "reset"].filter { body[$0] != nil }
        guard actions.count == 1 else {
            throw AdminError.badRequest("Give exactly one of \"advance\" (seconds), \"set\" (epoch seconds) or \"reset\": true.")
        }
        switch actions[0] {
        case "advance":
            guard let seconds = wholeSeconds(body["advance"]) else {
                if case .number(let number)? = body["advance"], number == number.rounded() {
                    throw AdminError.badRequest("\"advance\" is out of range: the clock shows times from 1970 to 9999.")
                }
                throw AdminError.badRequest("\"advance\" must be a whole number of seconds.")
            }
            return (.advance(seconds: seconds), force)
        case "set":
            guard let time = wholeSeconds(body["set"]) else { throw AdminError.badRequest("\"set\" must be whole seconds since 1970.") }
            return (.set(to: time), force)
        default:
            guard body["reset"]?.boolValue == true else { throw AdminError.badRequest("\"reset\" must be true.") }
            return (.reset, force)
        }
    }

    static func wholeSeconds(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int64(number)
    }
}
