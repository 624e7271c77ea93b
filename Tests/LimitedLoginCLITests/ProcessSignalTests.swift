import Foundation
import Testing

/// The tests signal their children only while a child's PID still names it (PIDs wrap at 32,768 here).
@Suite("Test harness: a signal reaches only the child it was meant for")
struct ProcessSignalTests {
    /// A `sleep` child, launched as every test child is.
    private func sleeper() async throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        try await ProcessLaunch.start(process)
        return process
    }

    @Test("a PID whose start time is not the launched child's gets no signal; the child's own start time does")
    func startTimeGuards() async throws {
        let child = try await sleeper()
        let pid = child.processIdentifier
        let started = try #require(ProcessLaunch.startTime(of: pid))
        // As if the PID now named another process: a different start time. Sent, SIGUSR1 would end the child
        // with 128 + 10, not the 128 + 9 of the SIGKILL below.
        #expect(!ProcessLaunch.send(SIGUSR1, to: pid, startedAt: started + 1))
        // SIGKILL: this process's children inherit SIGTERM ignored (the provider's lifecycle ignores it here).
        #expect(ProcessLaunch.send(SIGKILL, to: pid, startedAt: started))
        #expect(ChildExit.status(of: child) == 128 + SIGKILL)
    }

    @Test("a child that has ended and been reaped is not signalled (its PID may be another process's by then)")
    func reapedChild() async throws {
        let child = try await sleeper()
        ProcessLaunch.signal(child, SIGKILL)
        #expect(ChildExit.status(of: child) == 128 + SIGKILL)
        for _ in 0..<100 where ProcessLaunch.startTime(of: child.processIdentifier) != nil { try await Task.sleep(for: .milliseconds(50)) }
        #expect(ProcessLaunch.startTime(of: child.processIdentifier) == nil, "reaped, the PID names no process")
        #expect(!ProcessLaunch.send(SIGKILL, to: child.processIdentifier, startedAt: 0))
    }
}
