import Hummingbird
import LimitedLoginCore

/// One Graph API call as every Graph controller reads it: its parameters (the query, then a form body's when
/// the call sends one) and its caller (``GraphCallerResolver``), with a failure answered in the Graph error
/// shape. The one reader of Graph requests.
enum GraphCall {
    /// Whether a call's parameters include a form body sent with it (POST or DELETE).
    enum Parameters {
        case query
        case queryAndForm(limit: Int)
    }

    /// Runs `body` with the call's parameters and caller; a ``GraphError`` from reading or from `body` is the answer.
    static func answer(
        _ request: Request, services: ProviderServices, parameters reading: Parameters = .query,
        _ body: (FormParameters, GraphCaller) async throws -> Response
    ) async throws -> Response {
        var request = request
        do {
            var parameters: FormParameters
            do { parameters = try FormParameters(encoded: request.uri.query ?? "") } catch {
                throw GraphError("The query cannot be read: \(error.description).", code: 100)
            }
            if case .queryAndForm(let limit) = reading, request.method != .get,
                (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded")
            {
                let form: FormParameters
                do { form = try await request.formBody(limit: limit) } catch {
                    throw GraphError("The body cannot be read: \(error.body ?? "").", code: 100)
                }
                parameters = FormParameters(pairs: parameters.pairs + form.pairs)
            }
            let caller = try await GraphCallerResolver(services: services).resolve(
                try GraphCallerResolver.token(in: request, query: parameters), query: parameters)
            return try await body(parameters, caller)
        } catch let error as GraphError {
            return error.response
        }
    }
}
