import Foundation
import Testing

/// Issue #36 item 6: a store is refused at start when it cannot be trusted: a second `serve` reaching the
/// same SQLite file through a symbolic link (it ran beside the first), a zero-byte file (it silently made a
/// new store with a new signing key), a damaged page in the middle (it started and failed its first dialog).
@Suite("serve: a store that cannot be trusted is refused at start")
struct StoreStartChecksTests {
    private static func folder() throws -> URL { try temporaryFolder("limited-login-store-checks") }

    @Test("a second serve through a symbolic link to the same file is refused while the first runs")
    func symlinkLocked() async throws {
        let folder = try Self.folder()
        let database = folder.appendingPathComponent("store.sqlite").path
        let link = folder.appendingPathComponent("link.sqlite").path
        let first = try await ServerProcess.start(["--port", "0", "--database", database], directory: folder)
        defer { Task { await first.stop() } }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        let second = try await CLIProcess.run(["serve", "--port", "0", "--database", link])
        #expect(second.status == 1)
        #expect(
            second.error.hasSuffix(
                "limited-login serve: cannot start: the store is unavailable: SQLite file \(link) is in use by another provider process (an SQLite store serves one process; stop the other one, or give another --database)\n"
            ), "\(second.error)")
        let viaDots = try await CLIProcess.run([
            "serve", "--port", "0", "--database", folder.path + "/../" + folder.lastPathComponent + "/store.sqlite",
        ])
        #expect(viaDots.status == 1 && viaDots.error.contains("is in use by another provider process"), "\(viaDots.error)")
    }

    @Test("a second serve through a hard link to the same file is refused while the first runs; a copy is another store and runs")
    func hardLinkLocked() async throws {
        let folder = try Self.folder()
        let other = try Self.folder()
        let database = folder.appendingPathComponent("store.sqlite").path
        let link = other.appendingPathComponent("hard-link.sqlite").path
        let first = try await ServerProcess.start(["--port", "0", "--database", database], directory: folder)
        defer { Task { await first.stop() } }
        try FileManager.default.linkItem(atPath: database, toPath: link)
        let second = try await CLIProcess.run(["serve", "--port", "0", "--database", link])
        #expect(second.status == 1)
        #expect(
            second.error.hasSuffix(
                "limited-login serve: cannot start: the store is unavailable: SQLite file \(link) is in use by another provider process under another name (a hard link or a bind mount of it); an SQLite store serves one process: stop the other one, or give another --database\n"
            ), "\(second.error)")
        #expect(second.error.split(separator: "\n").count == 1, "one line: \(second.error)")
        let copy = other.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        let copied = try await CLIProcess.run(["serve", "--port", "0", "--database", copy, "--exec", "true"])
        #expect(copied.status == 0, "a copy is a store of its own: \(copied.error)")
    }

    @Test("a store a newer release has upgraded is refused in one line with status 73, and nothing is written to it")
    func newerSchemaRefused() async throws {
        let folder = try Self.folder()
        let database = folder.appendingPathComponent("newer.sqlite").path
        let created = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--exec", "true"])
        #expect(created.status == 0, "\(created.error)")
        let addStep = Process()
        addStep.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        addStep.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO ll_schema_migrations VALUES ('9001_from_a_newer_release', 0)\"); c.commit(); c.close()",
            database,
        ]
        try addStep.run()
        addStep.waitUntilExit()
        #expect(addStep.terminationStatus == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let refused = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--exec", "true"])
        #expect(refused.status == 73)
        #expect(
            refused.error.hasSuffix(
                "limited-login serve: cannot start: the store is newer than this release: it has schema step 9001_from_a_newer_release, which this binary (schema 0016_admin_credentials_and_log) does not know; run the release that wrote it, or a newer one, or restore a copy made by this one\n"
            ), "\(refused.error)")
        #expect(refused.error.split(separator: "\n").count == 2, "the start line and the refusal: \(refused.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "nothing written")
    }

    @Test("a zero-byte store file is refused, and left as it is")
    func emptyFileRefused() async throws {
        let folder = try Self.folder()
        let database = folder.appendingPathComponent("copied.sqlite").path
        FileManager.default.createFile(atPath: database, contents: Data())
        let result = try await CLIProcess.run(["serve", "--port", "0", "--database", database])
        #expect(result.status == 1)
        #expect(
            result.error.hasSuffix(
                "limited-login serve: cannot start: the store is unavailable: the SQLite file \(database) is empty (a failed copy?); give the file that holds the store, or add --init to start a new store in it\n"
            ), "\(result.error)")
        #expect(try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int == 0)
        // --init says to make one there.
        let made = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--init", "--exec", "true"])
        #expect(made.status == 0, "\(made.error)")
        #expect(try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int ?? 0 > 0)
    }

    @Test("an SQLite file without the provider's tables (another program's) is refused and left as it is, unless --init")
    func foreignDatabaseRefused() async throws {
        let folder = try Self.folder()
        let database = folder.appendingPathComponent("other.sqlite").path
        let created = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--exec", "true"])
        #expect(created.status == 0, "\(created.error)")
        // Make it another program's: a table of its own, none of the provider's.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for (name,) in c.execute("select name from sqlite_master where type='table' and name like 'll_%'").fetchall():
                c.execute('drop table "%s"' % name)
            c.execute("create table notes (id integer primary key, text text)")
            c.commit()
            """, database,
        ]
        try await ProcessLaunch.start(sqlite)
        #expect(ChildExit.status(of: sqlite) == 0)
        let refused = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--exec", "true"])
        #expect(refused.status == 1)
        #expect(
            refused.error.hasSuffix(
                "limited-login serve: cannot start: the store is unavailable: the SQLite file \(database) is a database without the provider's tables (another program's file?); give another --database, or add --init to make a store in it\n"
            ), "\(refused.error)")
        let made = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--init", "--exec", "true"])
        #expect(made.status == 0, "\(made.error)")
    }

    @Test("a damaged page in the middle of the file is found at start, in one line")
    func damagedPageRefused() async throws {
        let folder = try Self.folder()
        let database = folder.appendingPathComponent("store.sqlite").path
        // A store with some pages, closed cleanly (its WAL folded back into the file).
        let made = try await CLIProcess.run(["serve", "--port", "0", "--database", database, "--exec", "true"])
        #expect(made.status == 0, "\(made.error)")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
        try handle.close()
        let result = try await CLIProcess.run(["serve", "--port", "0", "--database", database])
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        #expect(lines.last?.contains("the SQLite file fails its integrity check (") == true, "\(result.error)")
        #expect(lines.last?.hasSuffix("); restore it from a copy") == true, "\(result.error)")
        #expect(!result.output.contains("Limited Login provider running"))
    }
}
