import Foundation
import Testing

/// Issue #30 item 2: `serve --exec` that a CI can rely on: CMD in a process group of its own under bash (when
/// installed) with this binary first on PATH; serve returns as soon as CMD exits, ending what CMD left
/// running; SIGTERM and SIGINT to serve reach CMD. A hang here is the defect: each run is bounded by the
/// test's own wait, never timed.
@Suite("serve --exec: returns with CMD, ends what it left, passes signals on")
struct ServeExecTests {
    private static func folder() throws -> URL { try temporaryFolder("limited-login-exec") }

    /// True when no live process has this ID (a zombie waiting for its parent counts as ended).
    private static func ended(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return errno == ESRCH }
        return ProcessStat(pid: pid)?.state == "Z"
    }

    private static func pid(in file: URL) throws -> Int32 {
        try #require(Int32(String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("CMD that starts a backend in the background (the README's shell example): serve exits with CMD's status and ends the backend")
    func backgroundBackend() async throws {
        let folder = try Self.folder()
        let pidFile = folder.appendingPathComponent("backend.pid")
        // The README's shape: a backend started with &, a token minted with the limited-login on PATH.
        let script = """
            sleep 300 & echo $! > '\(pidFile.path)'
            TOKEN=$(limited-login token --app-id "$LIMITED_LOGIN_APP_ID" --user alice@example.com --nonce n-1)
            test -n "$TOKEN" || exit 9
            exit 3
            """
        let result = try await CLIProcess.run(["serve", "--port", "0", "--database", ":memory:", "--exec", script])
        #expect(result.status == 3, "\(result.error)")
        #expect(
            result.error.contains("limited-login serve: the --exec command left processes running; ending them (SIGTERM, then SIGKILL after 5 s)"),
            "\(result.error)")
        let backend = try Self.pid(in: pidFile)
        var gone = Self.ended(backend)
        for _ in 0..<50 where !gone {
            try await Task.sleep(for: .milliseconds(100))
            gone = Self.ended(backend)
        }
        #expect(gone, "the background backend \(backend) is still running")
    }

    @Test("CMD gets the standard streams only: nothing it leaves running holds serve's port after serve exits")
    func onlyStandardStreams() async throws {
        let folder = try Self.folder()
        let pidFile = folder.appendingPathComponent("daemon.pid")
        // A daemon as `pg_ctl start` makes one: its own session, streams closed, still running when CMD exits.
        let result = try await CLIProcess.run([
            "serve", "--port", "0", "--database", ":memory:", "--exec",
            "ls /proc/$$/fd; setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! > '\(pidFile.path)'; sleep 0.2",
        ])
        #expect(result.status == 0, "\(result.error)")
        // The shell's own streams, plus the descriptor `ls` reads the folder with (no pipeline: the shell would
        // hold its ends while `ls` looks).
        let descriptors = result.output.split(separator: "\n").compactMap { Int($0) }
        #expect(descriptors.count >= 3 && descriptors.filter { $0 > 2 }.count <= 1, "\(result.output)")
        let daemon = try Self.pid(in: pidFile)
        defer { kill(daemon, SIGKILL) }
        if !Self.ended(daemon) {
            let sockets = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon)/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon)/fd/\($0)")
            }.filter { $0.hasPrefix("socket:") }
            #expect(sockets.isEmpty, "the daemon holds \(sockets)")
        }
    }

    @Test("a request held by a delay fault does not keep serve running once CMD has exited")
    func delayFaultEndsWithServe() async throws {
        let folder = try Self.folder()
        let script = """
            limited-login scenario fault --endpoint jwks --delay 300 >/dev/null || exit 9
            python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=600)' "$LIMITED_LOGIN_JWKS_URL" &
            sleep 0.5; exit 4
            """
        // Started as a CI job starts it, and waited for here (not through ServerProcess, which needs to see the
        // server running: a quick run is over before that).
        let serve = Process()
        serve.executableURL = CLIProcess.binary
        serve.arguments = ["serve", "--port", "0", "--database", ":memory:", "--exec", script]
        serve.currentDirectoryURL = folder
        serve.standardOutput = FileHandle.nullDevice
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        // Bounded by this wait, never timed: the delay is five minutes.
        for _ in 0..<600 where serve.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        let running = serve.isRunning
        if running { kill(serve.processIdentifier, SIGKILL) }
        #expect(!running, "serve still runs a minute after CMD exited: the delayed request holds it")
        serve.waitUntilExit()
        #expect(running || serve.terminationStatus == 4, "serve exited with \(serve.terminationStatus)")
    }

    @Test("a signal to serve reaches CMD once; the provider answers CMD's clean-up; serve exits with CMD's status")
    func signalWithCleanUp() async throws {
        let folder = try Self.folder()
        let ready = folder.appendingPathComponent("trapped")
        let health = folder.appendingPathComponent("health")
        let count = folder.appendingPathComponent("count")
        // The trap runs once per signal it gets: it counts them, asks the provider for its health, and exits 5.
        let script = """
            trap 'echo x >> "\(count.path)"; limited-login health > "\(health.path)" 2>&1; exit 5' INT TERM
            touch "\(ready.path)"
            while :; do sleep 0.1; done
            """
        let server = try await ServerProcess.start(["--port", "0", "--database", ":memory:", "--exec", script], directory: folder)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: ready.path) { try await Task.sleep(for: .milliseconds(50)) }
        await server.signal(SIGINT)
        for _ in 0..<200 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        let running = server.isRunning
        if running { await server.stop(signal: SIGKILL) }
        #expect(!running, "serve is still running 20 s after the signal")
        #expect(server.exitStatus == 5, "CMD's status, not serve's own: \(String(describing: server.exitStatus)) \(server.output.suffix(400))")
        #expect(try String(contentsOf: count, encoding: .utf8) == "x\n", "the trap ran more than once: serve signalled CMD again")
        let answer = try String(contentsOf: health, encoding: .utf8)
        #expect(answer.contains("answered 200"), "the provider did not answer the clean-up: \(answer)")
    }

    @Test("under nohup (SIGHUP ignored when serve starts) a hangup does not reach CMD")
    func nohupKeepsHangupsAway() async throws {
        let folder = try Self.folder()
        let ready = folder.appendingPathComponent("started")
        // `trap '' HUP` then exec: serve starts with SIGHUP ignored, as nohup starts it.
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: "/bin/sh")
        serve.arguments = [
            "-c", "trap '' HUP; exec \"$0\" serve --port 0 --database :memory: --exec \"touch '\(ready.path)'; sleep 3; exit 6\"",
            CLIProcess.binary.path,
        ]
        serve.standardOutput = FileHandle.nullDevice
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: ready.path) { try await Task.sleep(for: .milliseconds(50)) }
        kill(serve.processIdentifier, SIGHUP)
        for _ in 0..<300 where serve.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        if serve.isRunning { kill(serve.processIdentifier, SIGKILL) }
        serve.waitUntilExit()
        #expect(serve.terminationStatus == 6, "CMD ran to its end: \(serve.terminationStatus) (129: the hangup reached it)")
    }

    @Test("CMD runs under bash when installed, with this binary's folder first on PATH")
    func shellAndPath() async throws {
        let result = try await CLIProcess.run([
            "serve", "--port", "0", "--database", ":memory:", "--exec", #"echo "bash=${BASH_VERSION:+yes}"; command -v limited-login"#,
        ])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let hasBash = ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"].contains { FileManager.default.isExecutableFile(atPath: $0) }
        #expect(lines.first == (hasBash ? "bash=yes" : "bash="))
        let binary = CLIProcess.binary.resolvingSymlinksInPath().path
        #expect(lines.dropFirst().first == binary, "\(lines)")
    }

    @Test("SIGTERM and SIGINT to serve reach CMD's group; serve stops with CMD's status", arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func signalsPassedOn(signal: Int32, status: Int32) async throws {
        let folder = try Self.folder()
        let pidFile = folder.appendingPathComponent("child.pid")
        let server = try await ServerProcess.start(
            ["--port", "0", "--database", ":memory:", "--exec", "sleep 300 & echo $! > '\(pidFile.path)'; wait"], directory: folder
        )
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: pidFile.path) { try await Task.sleep(for: .milliseconds(50)) }
        let child = try Self.pid(in: pidFile)
        await server.signal(signal)
        for _ in 0..<200 where server.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.isRunning, "serve is still running 20 s after the signal")
        if server.isRunning { await server.stop(signal: SIGKILL) }
        #expect(Self.ended(child), "CMD's child \(child) is still running")
        let exit = server.exitStatus
        // bash waiting in `wait` ends on the signal itself: 128 + the signal.
        #expect(exit == status, "serve exited with \(String(describing: exit)): \(server.output.suffix(400))")
    }
}
