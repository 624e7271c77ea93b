import Foundation
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

/// Issue #58 item 4: one file, one server, whatever its names. (Across processes: StoreStartChecksTests.)
@Suite("Store: the lock is the file's, not a name's")
struct StoreFileLockTests {
    @Test("in one process, a store opened through a hard link of an open store's file is refused before the file is opened")
    func hardLinkInOneProcess() async throws {
        let path = temporaryDatabasePath()
        let store = try await ProviderStore.open(.sqliteFile(path: path), logger: TestFixtures.quietLogger)
        let link = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("linked.sqlite").path
        try FileManager.default.linkItem(atPath: path, toPath: link)
        let error = await #expect(throws: StoreError.self) {
            _ = try await ProviderStore.open(.sqliteFile(path: link), logger: TestFixtures.quietLogger)
        }
        #expect(
            error
                == .unavailable(
                    "SQLite file \(link) is in use by another provider process under another name (a hard link or a bind mount of it); an SQLite store serves one process: stop the other one, or give another --database"
                ))
        // The first store still works (its locks were not dropped by the refused open).
        try await store.setSetting("probe", to: "1")
        #expect(try await store.settingValue("probe") == "1")
        await store.close()
        // Once it is closed, the file opens under its other name.
        let again = try await ProviderStore.open(.sqliteFile(path: link), logger: TestFixtures.quietLogger)
        #expect(try await again.settingValue("probe") == "1")
        await again.close()
    }
}
