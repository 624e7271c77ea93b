import Foundation
import Synchronization
import Testing

@testable import limited_login

#if canImport(Glibc)
import Glibc
#endif

@Suite("serve --exec: signals around the command's spawn")
struct ExecSignalsTests {
    @Test("a signal that comes while the command is being spawned is passed on to it, not taken as one before it ran")
    func signalWhileSpawning() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ll-exec-signals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ready = folder.appendingPathComponent("ready").path
        // No signal sources in the test process (it keeps its own SIGTERM and SIGINT): the signal is given to the
        // handler as a signal source gives it, at a moment that cannot be chosen from outside.
        let stops = Mutex<[Int32]>([])
        let signals = ExecSignals(grace: .seconds(30), handled: [], stopBeforeCommand: { number in stops.withLock { $0.append(number) } })
        let group = try signals.spawnCommand {
            let group = try SpawnedGroup.spawn(
                shell: ServeExec.shell, command: "trap 'exit 7' USR2; : > '\(ready)'; sleep 20 & wait",
                environment: ProcessInfo.processInfo.environment)
            // The shell has its trap; the signal comes after the spawn, before spawnCommand has the group.
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: ready), Date() < deadline { usleep(10_000) }
            signals.received(SIGUSR2)
            return group
        }
        let status = await group.exitStatus()
        group.endLeftovers(grace: .seconds(1))
        #expect(stops.withLock { $0 }.isEmpty, "the signal was taken as one before the command started")
        #expect(status == 7, "the command's trap should have run on the signal passed on to it")
    }
}
