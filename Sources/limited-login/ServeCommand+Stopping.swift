import Foundation
import LimitedLoginProvider
import LimitedLoginVerifier
import NIOCore
import Synchronization

/// How `serve` ends: what it does once the server has stopped, its exit status, and its failures in one clause.
extension ServeCommand {
    /// The exit status of a run whose `--export-on-exit` file could not be written (EX_CANTCREAT).
    static let exportFailedStatus: Int32 = 73

    /// What serve does once the server has stopped, before the store closes: the ready file and a temporary
    /// CA file removed, and with `--export-on-exit` the state written (`export` told when it cannot be).
    func closingSteps(export: ExportResult, temporaryCA: String?) -> @Sendable (LimitedLoginProvider) async -> Void {
        let path = store.exportOnExit
        let readyFile = harness.readyFile
        return { provider in
            // The server has stopped: the ready file no longer describes a provider.
            if let readyFile { ReadyFile.remove(readyFile) }
            if let temporaryCA { try? FileManager.default.removeItem(atPath: temporaryCA) }
            guard let path else { return }
            do {
                let data = try await provider.exportState(includingKeys: true)
                try PrivateFile.write(data, to: path)
                printErrorLine("limited-login serve: state written to \(path)")
            } catch {
                printErrorLine("limited-login serve: cannot write the state to \(path): \(error)")
                export.fail()
            }
        }
    }

    /// One clause for a failure to start or run: the port in use says which and what to do.
    func describe(_ error: any Error) -> String {
        let (host, port) = (network.host, network.port)
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE:
                return "port \(port) on \(host) is in use by another program; choose another with --port, or --port 0 for a free one"
            case EACCES:
                return
                    "cannot listen on port \(port) on \(host) (permission denied; ports below 1024 need privileges); choose another with --port, or --port 0 for a free one"
            case EADDRNOTAVAIL:
                return "cannot listen on \(host): it is not an address of this machine; use --host 127.0.0.1, or 0.0.0.0 for every interface"
            default:
                break
            }
        }
        if let error = error as? StoreError { return error.description }
        return TransportFailure.reason(error)
    }
}

/// Whether `--export-on-exit` failed: set by serve's closing step, read once serve has stopped.
final class ExportResult: Sendable {
    private let failedFlag = Atomic<Bool>(false)
    var failed: Bool { failedFlag.load(ordering: .relaxed) }
    func fail() { failedFlag.store(true, ordering: .relaxed) }
}
