import Foundation
import Hummingbird
import LimitedLoginJOSE

/// `GET|POST /_admin/clock`: the provider's time, which tests move (docs/BEHAVIOUR.md, section 9).
/// `{"advance": SECONDS}`, `{"set": EPOCH}` or `{"reset": true}`; `"force": true` lets the clock go back
/// before tokens it already issued.
struct AdminClockController: Sendable {
    let services: ProviderServices
    var clock: ProviderClock { services.clock }

    func addRoutes<Context: RequestContext>(to router: RouterGroup<Context>) {
        router.get("/_admin/clock") { request, _ in show() }
        router.post("/_admin/clock") { request, _ in try await move(request) }
    }

    private func show() -> Response {
        let now = clock.now()
        var object: [String: JSONValue] = [
            "now": .number(Double(now)), "iso8601": .string(Self.iso8601(now)), "offset": .number(Double(clock.offset)),
            "system_now": .number(Double(ProviderTime.systemNow())),
        ]
        if let latest = clock.latestIssuedAt { object["latest_issued_at"] = .number(Double(latest)) }
        return Responses.json(.object(JSONObject(object)))
    }

    private func move(_ request: Request) async throws -> Response {
        let body: JSONObject
        switch await AdminJSONBody.read(request, limit: services.configuration.maximumBodySize) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let object): body = object
        }
        if let message = body.unknownKeyMessage(accepted: ["advance", "set", "reset", "force"]) {
            throw AdminError.badRequest(message)
        }
        let force = body["force"]?.boolValue ?? false
        let actions = ["advance", "set", "reset"].filter { body[$0] != nil }
        guard actions.count == 1 else {
            throw AdminError.badRequest("Give exactly one of \"advance\" (seconds), \"set\" (epoch seconds) or \"reset\": true.")
        }
        do {
            switch actions[0] {
            case "advance":
                guard let seconds = Self.wholeSeconds(body["advance"]) else {
                    throw AdminError.badRequest("\"advance\" must be a whole number of seconds.")
                }
                try clock.advance(by: seconds, force: force)
            case "set":
                guard let time = Self.wholeSeconds(body["set"]) else {
                    throw AdminError.badRequest("\"set\" must be whole seconds since 1970.")
                }
                try clock.set(to: time, force: force)
            default:
                guard body["reset"]?.boolValue == true else {
                    throw AdminError.badRequest("\"reset\" must be true.")
                }
                clock.reset()
            }
        } catch let error as ProviderClockError {
            throw AdminError.conflict(error.description)
        }
        let offset = clock.offset
        services.keyring.forgetSnapshot()
        try await services.clusterClock.publish(offset: offset)
        services.logger.notice("provider clock moved", metadata: ["now": "\(clock.now())", "offset": "\(clock.offset)"])
        return show()
    }

    static func wholeSeconds(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int64(number)
    }

    static func iso8601(_ time: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }
}
