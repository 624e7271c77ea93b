import LimitedLoginTestSupport

@testable import LimitedLoginProvider

/// Runs `body` with a fresh store of `dialect` (an SQLite file, or a new PostgreSQL database), closed
/// afterwards, also when `body` throws.
func withFreshStore(_ dialect: StoreDialect, _ body: (ProviderStore) async throws -> Void) async throws {
    let store = try await ProviderStore.open(try await dialect.freshLocation(), logger: TestFixtures.quietLogger)
    do { try await body(store) } catch {
        await store.close()
        throw error
    }
    await store.close()
}
