import Logging

/// The request being answered, for log lines written while answering it: each carries the request's ID,
/// as its request line does, so that one request's lines can be found together.
public enum RequestLogContext {
    @TaskLocal public static var requestID: String?

    /// `request_id`, when a request is being answered.
    static var metadata: Logger.Metadata {
        requestID.map { ["request_id": .string($0)] } ?? [:]
    }

    /// `metadata` with the request's ID added.
    static func adding(to metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.merging(Self.metadata) { own, _ in own }
    }
}
