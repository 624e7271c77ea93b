import Foundation
import Logging

/// Records every admin write that succeeded (docs/SECURITY.md, "Scoped admin credentials"): who, what, on
/// what, when and through which node, in the store so that every node's writes are in one log. The log
/// keeps the newest ``kept`` entries.
struct AdminWriteLog: Sendable {
    static let kept = 10_000
    let store: ProviderStore
    let logger: Logger
    /// This node, as the log names it: the host's name and the process ID.
    let node = "\(ProcessInfo.processInfo.hostName) pid \(ProcessInfo.processInfo.processIdentifier)"

    /// Records a write. A failure to record is logged, not answered: the write itself is done.
    func record(by caller: AdminCaller, operation: String, target: String) async {
        let entry = AdminLogEntry(
            id: RandomIdentifiers.secret(byteCount: 12), at: Int64(Date().timeIntervalSince1970 * 1_000_000), credential: caller.logName,
            operation: operation, target: target, node: node)
        do {
            try await store.appendAdminLog(entry, keeping: Self.kept)
        } catch {
            logger.error("admin write not recorded in the admin log", metadata: ["operation": "\(operation)", "reason": "\(error)"])
        }
    }
}
