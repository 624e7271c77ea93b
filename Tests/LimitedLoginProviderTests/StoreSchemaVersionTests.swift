import LimitedLoginTestSupport
import SQLKit
import Testing

@testable import LimitedLoginProvider

/// Issue #58 item 2: a binary refuses a store whose schema is newer than it knows, before it writes anything.
@Suite("Store: a schema newer than this release is refused")
struct StoreSchemaVersionTests {
    @Test(
        "a store carrying a schema step this binary does not know is refused, naming the step and this binary's schema",
        arguments: StoreDialect.available)
    func newerSchemaRefused(_ dialect: StoreDialect) async throws {
        let location = try await dialect.freshLocation()
        let store = try await ProviderStore.open(location, logger: TestFixtures.quietLogger)
        try await store.db.insert(into: "ll_schema_migrations").columns("name", "applied_at").values("9001_from_a_newer_release", Int64(0)).run()
        await store.close()

        let error = await #expect(throws: StoreError.self) { _ = try await ProviderStore.open(location, logger: TestFixtures.quietLogger) }
        #expect(
            error
                == .newerSchema(
                    "it has schema step 9001_from_a_newer_release, which this binary (schema \(StoreMigrations.all.last?.name ?? "")) does not know; run the release that wrote it, or a newer one, or restore a copy made by this one"
                ))
        #expect(StoreMigrations.all.last?.name == "0016_admin_credentials_and_log")
    }
}
