import Foundation
import LimitedLoginTestSupport
import Synchronization

/// Runs the built `limited-login` binary as a user would, capturing what it prints.
struct CLIProcess {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// The binary beside the test bundle (`.build/<triple>/debug/limited-login`).
    static var binary: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("limited-login"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("limited-login"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/limited-login"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// The test process's LIMITED_LOGIN_* variables, read once: the command does not inherit them.
    private static let unset = ProcessInfo.processInfo.environment.keys.filter { $0.hasPrefix("LIMITED_LOGIN_") }.sorted()

    /// Runs the binary on a thread of its own: waiting on a child process on the cooperative pool would
    /// starve the loopback servers the same test relies on, and on Dispatch's global queues (as wide as
    /// the machine's cores) it would hold up everything else queued there while many commands run at once.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> Result {
        try await onOwnThread { try runBlocking(arguments, input: input, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], input: String?, environment: [String: String]) throws -> Result {
        let process = Process()
        // The test's own LIMITED_LOGIN_* variables never leak into the command; the test gives its own.
        // Through env(1) rather than Process.environment, which crashed Foundation's Process.run (a bad
        // memcpy) when many tests launched processes at once.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            unset.flatMap { ["-u", $0] } + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [binary.path] + arguments
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try ProcessLaunch.run(process)
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read standard error on another thread so neither full pipe can stall the child.
        nonisolated(unsafe) var errorData = Data()
        let reading = DispatchSemaphore(value: 0)
        Thread {
            errorData = PipeReader.readToEnd(error.fileHandleForReading)
            reading.signal()
        }.start()
        let outputData = PipeReader.readToEnd(output.fileHandleForReading)
        reading.wait()
        return Result(
            status: ChildExit.status(of: process),
            output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self)
        )
    }
}

/// Starts test processes one at a time, and only while this process has fewer than 1,200 descriptors open.
///
/// Foundation's `Process.run` on Linux (Swift 6.3) lists `/proc/self/fd` and copies each entry's whole
/// 256-byte name field, past the entry's end (swift-corelibs-foundation pull request 5472, "buffer over-read in
/// findMaximumOpenFromProcSelfFD"). When the entries fill glibc's 32 KiB directory buffer (1,353 or more open
/// descriptors: the fair-connection tests hold more than a thousand loopback connections in this process) and
/// the buffer ends where mapped memory ends, the copy reads past it and the whole suite dies (seen in a fresh
/// clone's run: `__memcpy` in `Process.run`, a fault at a page boundary). Below that many entries the copy stays
/// inside the buffer, so a launch waits (at most a minute) until the count is under 1,200.
///
/// Async callers use `start(_:)`: launches wait for each other, and under the load of the whole suite a
/// wait can be seconds; on the cooperative pool's two threads it would stall every server in this process
/// (seen in a fresh clone's run: in-process key-set servers that did not answer within 10 s).
enum ProcessLaunch {
    private static let lock = NSLock()
    /// Safely under the 1,353 open descriptors from which `Process.run` can read past its directory buffer.
    static let descriptorLimit = 1_200

    static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        var waited = 0
        while waited < 1_200, openDescriptorCount() >= descriptorLimit {
            usleep(50_000)
            waited += 1
        }
        try process.run()
        let pid = process.processIdentifier
        if let started = startTime(of: pid) { startTimes.withLock { $0[pid] = started } }
    }

    /// When each launched child started (``ProcessStat/startTime``), by PID.
    private static let startTimes = Mutex<[pid_t: UInt64]>([:])

    /// Sends `signal` to `process` only while its PID still names the child this process launched.
    ///
    /// A PID is reused once its process is reaped, and PIDs wrap (at 32,768 on the CI machines). Foundation's
    /// `isRunning` can stay true for a child it has reaped (see ``ChildExit``), so a `kill` guarded by it could
    /// reach whatever process has the PID by then. The whole suite takes about 3,700 PIDs (threads included),
    /// so within one run that needs other work on the machine to wrap them; the start time tells the two apart
    /// whatever else runs.
    static func signal(_ process: Process, _ signal: Int32) {
        let pid = process.processIdentifier
        guard let launched = startTimes.withLock({ $0[pid] }) else { return }
        send(signal, to: pid, startedAt: launched)
    }

    /// Sends `signal` to `pid` if the process with that PID started at `startedAt`; true when it was sent.
    @discardableResult
    static func send(_ signal: Int32, to pid: pid_t, startedAt: UInt64) -> Bool {
        guard pid > 0, startTime(of: pid) == startedAt else { return false }
        return kill(pid, signal) == 0
    }

    /// The start time of process `pid` (``ProcessStat``), or nil when there is no such process.
    static func startTime(of pid: pid_t) -> UInt64? { ProcessStat(pid: pid)?.startTime }

    /// How many entries `/proc/self/fd` has (each entry counted, its name never copied).
    static func openDescriptorCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count
    }

    /// `run(_:)` on a thread of its own, off the cooperative pool.
    static func start(_ process: Process) async throws {
        let launched = LaunchedProcess(process: process)
        try await onOwnThread { try run(launched.process) }
    }

    /// A process handed to the launching thread: `Process` is not `Sendable`, and only that thread uses it
    /// until the launch returns.
    private struct LaunchedProcess: @unchecked Sendable {
        let process: Process
    }
}

/// The exit status of a launched child whose output has ended, waited for without `Process.waitUntilExit`.
///
/// In one busy run of the suite `waitUntilExit` waited forever for a child that had exited (both its pipes
/// had ended; gdb found no such process): Foundation's run loop missed the news. This polls Foundation's
/// `isRunning` instead, and when Foundation has still not noticed after a few seconds, asks the kernel
/// (`waitid` with `WNOWAIT`, which leaves the child for Foundation to reap) how the child ended.
///
/// A child a signal ended gets 128 + the signal, as a shell reports it (Foundation gives the bare signal,
/// which reads like an exit status: 9 and 15 are not told from a command's own).
enum ChildExit {
    static func status(of process: Process) -> Int32 {
        let pid = process.processIdentifier
        var waited = 0
        while process.isRunning {
            if waited >= 5_000, let status = endedStatus(pid: pid) { return status }
            usleep(5_000)
            waited += 5
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// The child's exit status (128 + the signal when a signal ended it) when it has ended.
    private static func endedStatus(pid: Int32) -> Int32? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else { return nil }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? status : 128 + status
    }
}
