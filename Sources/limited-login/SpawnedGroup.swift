import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shell command spawned in a process group of its own (`posix_spawn` with `POSIX_SPAWN_SETPGROUP`), so
/// that it and everything it starts can be signalled together, and waited for by its process ID alone.
final class SpawnedGroup: Sendable {
    let pid: pid_t
    private let tookTerminal: Bool
    private let ended = Mutex<Int32?>(nil)

    private init(pid: pid_t, tookTerminal: Bool) {
        self.pid = pid
        self.tookTerminal = tookTerminal
    }

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `shell -c command` with `environment`, standard streams inherited, signals at their defaults
    /// (serve ignores SIGPIPE, which a child would otherwise inherit), in a new process group that also gets
    /// the terminal when serve has it in the foreground (so Ctrl-C and reading from it reach the command).
    static func spawn(shell: String, command: String, environment: [String: String]) throws -> SpawnedGroup {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        var empty = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGTTOU, SIGTTIN] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments = [shell, "-c", command]
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // Only the standard streams go to the command: serve's listening socket, its event loops' descriptors
        // and the store's file would otherwise stay open in whatever the command leaves running (a daemon it
        // starts keeps the port bound after serve has exited).
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        #if canImport(Glibc) || canImport(Musl)
        closeAboveStandardStreams(&fileActions)
        #elseif canImport(Darwin)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT))
        for descriptor: Int32 in 0...2 { posix_spawn_file_actions_addinherit_np(&fileActions, descriptor) }
        #endif
        var pid = pid_t()
        let result = posix_spawn(&pid, shell, &fileActions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw SpawnError(description: "cannot start \(shell): \(String(cString: strerror(result)))")
        }
        // Give the terminal to the command's group when serve holds it (an interactive run).
        var tookTerminal = false
        if isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) == getpgrp() {
            tookTerminal = withSIGTTOUIgnored { tcsetpgrp(STDIN_FILENO, pid) == 0 }
        }
        return SpawnedGroup(pid: pid, tookTerminal: tookTerminal)
    }

    #if canImport(Glibc) || canImport(Musl)
    /// Closes every descriptor above the standard streams in the child: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; looked up at run time, as Swift's Glibc
    /// module does not declare it), else each descriptor open now is marked close-on-exec.
    private static func closeAboveStandardStreams(_ fileActions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"),
            unsafeBitCast(symbol, to: CloseFrom.self)(&fileActions, 3) == 0
        {
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in names.compactMap(Int32.init) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
    #endif

    /// Waits (on a thread of its own: `waitpid` blocks) until the command's shell has exited; its status,
    /// 128 + the signal when a signal ended it.
    func exitStatus() async -> Int32 {
        if let status = ended.withLock({ $0 }) { return status }
        let pid = self.pid
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) == -1, errno == EINTR {}
                let exited = raw & 0x7F == 0
                continuation.resume(returning: exited ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F))
            }
        }
        ended.withLock { $0 = status }
        if tookTerminal { _ = Self.withSIGTTOUIgnored { tcsetpgrp(STDIN_FILENO, getpgrp()) } }
        return status
    }

    /// True once the command's shell has exited (``exitStatus()`` returned).
    var hasEnded: Bool { ended.withLock { $0 != nil } }

    /// Sends `signal` to every process of the group.
    func send(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// True while any process of the group is alive (reaping those that are this process's children).
    var groupAlive: Bool {
        var raw: Int32 = 0
        while waitpid(-pid, &raw, WNOHANG) > 0 {}
        return kill(-pid, 0) == 0
    }

    /// Serve is stopping: the group gets a second to end on a signal already passed on to it, then SIGTERM,
    /// then SIGKILL after `grace` if any of it is left.
    func terminate(grace: Duration) {
        Thread.detachNewThread { [self] in
            let settle = ContinuousClock.now + .seconds(1)
            while ended.withLock({ $0 }) == nil, ContinuousClock.now < settle { Thread.sleep(forTimeInterval: 0.02) }
            if ended.withLock({ $0 }) == nil { send(SIGTERM) }
            Thread.sleep(forTimeInterval: Self.seconds(grace))
            if ended.withLock({ $0 }) == nil { send(SIGKILL) }
        }
    }

    /// The command has ended: what it left running in its group gets SIGTERM, then SIGKILL after `grace`;
    /// returns once the group is gone (at most `grace` and a little more).
    func endLeftovers(grace: Duration) {
        guard groupAlive else { return }
        printErrorLine(
            "limited-login serve: the --exec command left processes running; ending them (SIGTERM, then SIGKILL after \(Int(Self.seconds(grace))) s)")
        send(SIGTERM)
        let deadline = ContinuousClock.now + grace
        while groupAlive, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if groupAlive {
            send(SIGKILL)
            let killed = ContinuousClock.now + .seconds(1)
            while groupAlive, ContinuousClock.now < killed { Thread.sleep(forTimeInterval: 0.02) }
        }
    }

    /// A signal was passed on: the group gets SIGKILL if the command has not ended `grace` from now.
    func killUnlessEnded(after grace: Duration) {
        Thread.detachNewThread { [self] in
            Thread.sleep(forTimeInterval: Self.seconds(grace))
            guard !hasEnded else { return }
            printErrorLine("limited-login serve: the --exec command did not end \(Int(Self.seconds(grace))) s after the signal; SIGKILL")
            send(SIGKILL)
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }

    private static func withSIGTTOUIgnored<T>(_ body: () -> T) -> T {
        let previous = signal(SIGTTOU, SIG_IGN)
        defer { signal(SIGTTOU, previous) }
        return body()
    }
}

/// `serve --exec`'s signals, from serve's start (the provider does not stop on them: ``ProviderConfiguration
/// /stopsOnSignals``): SIGTERM, SIGINT and SIGHUP are kept from their default action and handled here (one that
/// serve was started with ignored, as `nohup` ignores SIGHUP, stays ignored).
/// - Before the command runs, one ends serve at once with 128 + the signal: nothing was started for it.
/// - While the command is being spawned, one waits, and is passed on as soon as its group exists: taken as one
///   before the command ran, it would end serve and leave the command running.
/// - While it runs, each is passed on to the command's group as it came, and the provider goes on answering
///   (a trap that cleans up can still reach it); if the command has not ended `grace` after the first, its
///   group gets SIGKILL. serve stops once the command has ended, with the command's status.
/// - After it has ended, serve is stopping: they are ignored.
final class ExecSignals: Sendable {
    private enum State {
        case starting
        case spawning(pending: [Int32])
        case running(SpawnedGroup, killScheduled: Bool)
        case ended
    }

    private let state = Mutex<State>(.starting)
    private let sources: Mutex<[any DispatchSourceSignal]> = Mutex([])
    private let grace: Duration
    /// What a signal before the command does: ends serve (tests record it instead).
    private let stopBeforeCommand: @Sendable (Int32) -> Void

    /// - Parameter handled: the signals handled (tests use one of their own).
    init(
        grace: Duration, handled: [Int32] = [SIGTERM, SIGINT, SIGHUP],
        stopBeforeCommand: @escaping @Sendable (Int32) -> Void = ExecSignals.exitBeforeCommand
    ) {
        self.grace = grace
        self.stopBeforeCommand = stopBeforeCommand
        sources.withLock { sources in
            for number in handled {
                let previous = signal(number, SIG_IGN)
                // One serve was started with ignored (nohup ignores SIGHUP) stays ignored: not handled, not passed on.
                if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in received(number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Spawns the command with `spawn`; signals go to its group from then on, and one that came while it was
    /// being spawned is passed on now (the first schedules the SIGKILL, as when the command runs).
    func spawnCommand(_ spawn: () throws -> SpawnedGroup) throws -> SpawnedGroup {
        state.withLock { $0 = .spawning(pending: []) }
        let group: SpawnedGroup
        do {
            group = try spawn()
        } catch {
            let pending = state.withLock { state -> [Int32] in
                guard case .spawning(let pending) = state else { return [] }
                state = .starting
                return pending
            }
            if let first = pending.first { stopBeforeCommand(first) }
            throw error
        }
        let pending = state.withLock { state -> [Int32] in
            guard case .spawning(let pending) = state else { return [] }
            state = .running(group, killScheduled: !pending.isEmpty)
            return pending
        }
        for number in pending { group.send(number) }
        if !pending.isEmpty { group.killUnlessEnded(after: grace) }
        return group
    }

    /// The command has ended; serve is stopping.
    func commandEnded() {
        state.withLock { $0 = .ended }
    }

    /// Ends serve for a signal that came before the command started: nothing was started for it.
    @Sendable static func exitBeforeCommand(_ number: Int32) {
        printErrorLine("limited-login serve: stopped by signal \(number) before the --exec command started")
        Foundation.exit(128 + number)
    }

    /// A signal serve got (from the signal sources).
    func received(_ number: Int32) {
        enum Action {
            case exit
            case forward(SpawnedGroup, scheduleKill: Bool)
            case ignore
        }
        let action = state.withLock { state -> Action in
            switch state {
            case .starting: return .exit
            case .spawning(var pending):
                pending.append(number)
                state = .spawning(pending: pending)
                return .ignore
            case .running(let group, let killScheduled):
                state = .running(group, killScheduled: true)
                return .forward(group, scheduleKill: !killScheduled)
            case .ended: return .ignore
            }
        }
        switch action {
        case .exit:
            stopBeforeCommand(number)
        case .forward(let group, let scheduleKill):
            group.send(number)
            guard scheduleKill else { return }
            group.killUnlessEnded(after: grace)
        case .ignore:
            break
        }
    }
}
