/// Why a Graph API request failed.
public enum GraphClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no access token: after a limited login (or none) the Graph API cannot be called. Thrown
    /// before anything is sent.
    case noAccessToken
    /// The Graph API answered with its error shape.
    case graph(code: Int, subcode: Int?, type: String?, message: String)
    /// The answer is not what the Graph API sends.
    case unexpectedAnswer(status: Int, body: String)
    /// The request did not reach the Graph API or its answer did not come back.
    case transport(String)
    /// The refreshed token could not be saved.
    case notSaved(String)
    /// The session changed while the request ran (``LoginManager/logOut()``, or another person's login):
    /// what it read was not saved, so that it does not bring back a token or profile of before.
    case sessionChanged

    public var description: String {
        switch self {
        case .noAccessToken:
            return "there is no access token: a limited login gives an ID token only, and cannot call the Graph API"
        case .graph(let code, let subcode, _, let message):
            return "the Graph API refused the request (code \(code)\(subcode.map { ", subcode \($0)" } ?? "")): \(message)"
        case .unexpectedAnswer(let status, let body):
            return "the Graph API answered HTTP \(status) with something else than JSON: \(body.prefix(200))"
        case .transport(let reason):
            return "the Graph API could not be reached: \(reason)"
        case .notSaved(let reason):
            return "the refreshed access token could not be saved: \(reason)"
        case .sessionChanged:
            return "the session changed while the request ran (a log-out or another login); its answer was not saved"
        }
    }
}
