import SQLKit

/// One schema change, applied once and recorded in `ll_schema_migrations`.
///
/// Written with SQLKit's builders only (no dialect-specific SQL), so that the same list runs on SQLite and,
/// later, PostgreSQL. Integers are `BIGINT` (epoch seconds, flags); sets of permissions are comma-joined text.
struct StoreMigration: Sendable {
    let name: String
    let apply: @Sendable (any SQLDatabase) async throws -> Void
}

enum StoreMigrations {
    static let all: [StoreMigration] = [
        StoreMigration(name: "0001_initial", apply: createInitialSchema),
        StoreMigration(name: "0002_sign_in_hardening", apply: addSignInHardening),
        StoreMigration(name: "0003_gaming_apps_and_messenger_pages", apply: addGamingAndMessenger),
        StoreMigration(name: "0004_expiry_indexes", apply: addExpiryIndexes),
        StoreMigration(name: "0005_url_scheme_suffixes", apply: addURLSchemeSuffixes),
        StoreMigration(name: "0006_require_app_secret", apply: addRequireAppSecret),
        StoreMigration(name: "0007_compact_used_forms", apply: compactUsedForms),
        StoreMigration(name: "0008_sessions_by_person", apply: indexSessionsByPerson),
        StoreMigration(name: "0009_app_callbacks", apply: addAppCallbacks),
        StoreMigration(name: "0010_app_modes_and_roles", apply: addAppModesAndRoles),
        StoreMigration(name: "0011_pickable_users_by_name", apply: indexPickableUsersByName),
        StoreMigration(name: "0012_revoked_access_tokens", apply: addRevokedAccessTokens),
        StoreMigration(name: "0013_test_users_per_app", apply: addTestUsersPerApp),
        StoreMigration(name: "0014_sign_in_checks_in_flight", apply: addSignInChecksInFlight),
        StoreMigration(name: "0015_public_keys_kept", apply: addPublicKeysKept),
        StoreMigration(name: "0016_admin_credentials_and_log", apply: addAdminCredentialsAndLog),
    ]

    private static func createInitialSchema(_ db: any SQLDatabase) async throws {
        try await db.create(table: "ll_settings")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("value", type: .text, .notNull)
            .run()
        try await db.create(table: "ll_signing_keys")
            .column("key_id", type: .text, .primaryKey(autoIncrement: false))
            .column("private_key_pem", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("signs_from", type: .bigint, .notNull)
            .column("retired_at", type: .bigint)
            .run()
        try await db.create(table: "ll_apps")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("secret", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            .column("business_id", type: .text)
            .column("redirect_uris", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "ll_users")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("first_name", type: .text, .notNull)
            .column("middle_name", type: .text)
            .column("last_name", type: .text, .notNull)
            .column("email", type: .text, .notNull, .unique)
            .column("password_hash", type: .text, .notNull)
            .column("birthday", type: .text)
            .column("gender", type: .text)
            .column("hometown_id", type: .text)
            .column("hometown_name", type: .text)
            .column("location_id", type: .text)
            .column("location_name", type: .text)
            .column("link", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "ll_friendships")
            .column("user_id", type: .text, .notNull)
            .column("friend_id", type: .text, .notNull)
            .primaryKey("user_id", "friend_id")
            .run()
        try await db.create(table: "ll_app_scoped_ids")
            .column("app_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("asid", type: .text, .notNull, .unique)
            .primaryKey("app_id", "user_id")
            .run()
        try await db.create(table: "ll_grants")
            .column("app_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("granted", type: .text, .notNull)
            .column("declined", type: .text, .notNull)
            .column("installed", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .primaryKey("app_id", "user_id")
            .run()
        try await db.create(table: "ll_sessions")
            .column("id_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "ll_authorization_codes")
            .column("code_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("app_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("redirect_uri", type: .text, .notNull)
            .column("code_challenge", type: .text)
            .column("granted", type: .text, .notNull)
            .column("nonce", type: .text)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "ll_access_tokens")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("app_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("issued_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("data_access_expires_at", type: .bigint, .notNull)
            .run()
    }

    /// The pickable flag on users, the failed sign-in counters, and the used form tokens.
    ///
    /// Users already stored were all made with a password, so they stop being pickable, except the demo
    /// users a first start seeds (recognised by their email and profile link): they stay pickable, as
    /// newly seeded ones are.
    private static func addSignInHardening(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_users").column("pickable", type: .bigint, .notNull, .default(0)).run()
        for name in ["alice", "bob", "carol"] {
            try await db.update("ll_users").set("pickable", to: Int64(1))
                .where("email", .equal, "\(name)@example.com")
                .where("link", .equal, "https://www.facebook.com/\(name).example")
                .run()
        }
        try await db.create(index: "ll_users_pickable").on("ll_users").column("pickable").column("created_at").run()
        try await db.create(table: "ll_sign_in_attempts")
            .column("attempt_key", type: .text, .primaryKey(autoIncrement: false))
            .column("window_start", type: .bigint, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .run()
        try await db.create(index: "ll_sign_in_attempts_window").on("ll_sign_in_attempts").column("window_start").run()
        try await db.create(table: "ll_used_form_tokens")
            .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "ll_used_form_tokens_expiry").on("ll_used_form_tokens").column("expires_at").run()
    }

    /// Gaming apps, users' explicit age ranges and avatar names, and the Messenger page of a grant.
    private static func addGamingAndMessenger(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_apps").column("is_gaming", type: .bigint, .notNull, .default(0)).run()
        try await db.alter(table: "ll_users").column("age_range_min", type: .bigint).run()
        try await db.alter(table: "ll_users").column("age_range_max", type: .bigint).run()
        try await db.alter(table: "ll_users").column("gaming_name", type: .text).run()
        try await db.alter(table: "ll_grants").column("messenger_page_id", type: .text).run()
    }

    /// Indexes on when sessions and authorization codes expire, so that purging the expired ones reads only
    /// those.
    private static func addExpiryIndexes(_ db: any SQLDatabase) async throws {
        try await db.create(index: "ll_sessions_expiry").on("ll_sessions").column("expires_at").run()
        try await db.create(index: "ll_authorization_codes_expiry").on("ll_authorization_codes").column("expires_at").run()
    }

    /// The URL-scheme suffixes an app allows (`fb{appID}{suffix}://authorize/`), one per line.
    private static func addURLSchemeSuffixes(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_apps").column("url_scheme_suffixes", type: .text, .notNull, .default("")).run()
    }

    /// "Require App Secret": Graph calls with a person's token carry `appsecret_proof`.
    private static func addRequireAppSecret(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_apps").column("requires_appsecret_proof", type: .bigint, .notNull, .default(0)).run()
    }

    /// Used forms keyed by a 64-bit integer (``ProviderStore/usedFormKey(_:)``) instead of a 64-character
    /// hex hash: a row and its key's index a fifth of the size, for a store that keeps an hour of them
    /// (`:memory:` grew by a row per sign-in; docs/PERFORMANCE.md, "Memory"). The forms used so far are
    /// carried over, so none becomes usable again.
    private static func compactUsedForms(_ db: any SQLDatabase) async throws {
        try await db.create(table: "ll_used_forms")
            .column("form_key", type: .bigint, .primaryKey(autoIncrement: false))
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "ll_used_forms_expiry").on("ll_used_forms").column("expires_at").run()
        let used = try await db.select().columns("token_hash", "expires_at").from("ll_used_form_tokens").all()
        for row in used {
            let hash = try row.decode(column: "token_hash", as: String.self)
            let expiresAt = try row.decode(column: "expires_at", as: Int64.self)
            try await db.insert(into: "ll_used_forms").columns("form_key", "expires_at")
                .values(ProviderStore.usedFormKey(hash), expiresAt)
                .ignoringConflicts(with: ["form_key"]).run()
        }
        try await db.drop(table: "ll_used_form_tokens").run()
    }

    /// A person's sessions in the order they began (`created_us`: microseconds, as sign-ins in the same
    /// second must still be told apart), for ending the oldest beyond ``ProviderStore/sessionsPerPerson``.
    private static func indexSessionsByPerson(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_sessions").column("created_us", type: .bigint, .notNull, .default(0)).run()
        try await db.create(index: "ll_sessions_person").on("ll_sessions").column("user_id").column("created_us").run()
    }

    /// Access tokens of an installation that ended: refused for good, even after the person installs the
    /// app again.
    private static func addRevokedAccessTokens(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_access_tokens").column("revoked", type: .bigint, .notNull, .default(0)).run()
    }

    /// The apps' Deauthorize and Data Deletion Request callback URLs, and every delivery to them
    /// (``CallbackDelivery``): what was posted, how often, what came back.
    private static func addAppCallbacks(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_apps").column("deauthorize_callback_url", type: .text, .notNull, .default("")).run()
        try await db.alter(table: "ll_apps").column("data_deletion_callback_url", type: .text, .notNull, .default("")).run()
        try await db.create(table: "ll_callback_deliveries")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("app_id", type: .text, .notNull)
            .column("kind", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("url", type: .text, .notNull)
            .column("signed_request", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("next_attempt_at", type: .bigint)
            .column("last_error", type: .text)
            .column("response_status", type: .bigint)
            .column("confirmation_code", type: .text)
            .column("status_url", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("updated_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "ll_callback_deliveries_created").on("ll_callback_deliveries").column("created_at").run()
    }

    /// An app's mode (`live` for the apps made before it) and the people's roles on apps.
    private static func addAppModesAndRoles(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "ll_apps").column("mode", type: .text, .notNull, .default("live")).run()
        try await db.create(table: "ll_app_roles")
            .column("app_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("role", type: .text, .notNull)
            .primaryKey("app_id", "user_id")
            .run()
    }

    /// The sign-in page lists pickable users by name (case-insensitive), reading only the page it shows.
    /// An index on expressions: SQLKit has no builder for one, and this statement is the same in SQLite
    /// and PostgreSQL (a function call needs no parentheses of its own in either).
    private static func indexPickableUsersByName(_ db: any SQLDatabase) async throws {
        try await db.raw(
            "CREATE INDEX ll_users_pickable_name ON ll_users (pickable, lower(first_name), lower(last_name), id)"
        ).run()
    }

    /// Which apps each test user belongs to (an app's token manages only its own). A store made before
    /// opens with each of its users a test user of each of its apps, as every user was every app's until then.
    private static func addTestUsersPerApp(_ db: any SQLDatabase) async throws {
        try await db.create(table: "ll_app_test_users")
            .column("app_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .primaryKey("app_id", "user_id")
            .run()
        try await db.create(index: "ll_app_test_users_user").on("ll_app_test_users").column("user_id").run()
        try await db.raw("INSERT INTO ll_app_test_users (app_id, user_id) SELECT a.id, u.id FROM ll_apps a, ll_users u").run()
    }

    /// Applies every migration not yet recorded, in order. Each runs in a transaction with its record (SQLite
    /// and PostgreSQL both take schema changes in one), so a migration stopped partway (a full disk, a lost
    /// connection, a killed process) leaves no half-made change that its next run would trip over. `db` is one
    /// connection: `withSession` holds one for the whole run, even when `db` is a pool.
    static func run(on db: any SQLDatabase) async throws {
        try await db.withSession { session in try await run(onOneConnection: session) }
    }

    private static func run(onOneConnection db: any SQLDatabase) async throws {
        try await db.create(table: "ll_schema_migrations")
            .ifNotExists()
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("applied_at", type: .bigint, .notNull)
            .run()
        let applied = Set(
            try await db.select().column("name").from("ll_schema_migrations")
                .all(decodingColumn: "name", as: String.self))
        // A store a newer release has upgraded is refused before anything is written: this binary would write
        // into a schema it does not understand (docs/OPERATIONS.md, "Upgrading").
        let unknown = applied.subtracting(all.map(\.name)).sorted()
        if !unknown.isEmpty {
            throw StoreError.newerSchema(
                "it has schema step\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")), which this binary (schema "
                    + "\(all.last?.name ?? "none")) does not know; run the release that wrote it, or a newer one, or restore a copy made by this one")
        }
        for migration in all where !applied.contains(migration.name) {
            try await db.raw("BEGIN").run()
            do {
                try await migration.apply(db)
                try await db.insert(into: "ll_schema_migrations")
                    .columns("name", "applied_at")
                    .values(migration.name, ProviderTime.now())
                    .run()
                try await db.raw("COMMIT").run()
            } catch {
                try? await db.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// The places that password checks in flight hold across the nodes of a shared database
    /// (``ProviderStore/holdSignInCheck(id:places:window:)``).
    private static func addSignInChecksInFlight(_ db: any SQLDatabase) async throws {
        try await db.create(table: "ll_sign_in_checks")
            .column("check_id", type: .text, .notNull)
            .column("attempt_key", type: .text, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "ll_sign_in_checks_key").on("ll_sign_in_checks").column("attempt_key").run()
    }

    /// The public part of every signing key the store has held, kept after the key is dropped, so that the
    /// OIDC status and `id_token_hint` still know a token it signed (``ProviderStore/keepPublicKey(_:)``).
    private static func addPublicKeysKept(_ db: any SQLDatabase) async throws {
        try await db.create(table: "ll_public_keys")
            .column("key_id", type: .text, .primaryKey(autoIncrement: false))
            .column("jwk", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .run()
    }

    /// Named admin credentials scoped to apps (stored as the SHA-256 of the token, which is shown once), and
    /// the record of every admin write.
    private static func addAdminCredentialsAndLog(_ db: any SQLDatabase) async throws {
        try await db.create(table: "ll_admin_credentials")
            .column("name", type: .text, .primaryKey(autoIncrement: false))
            .column("token_sha256", type: .text, .notNull, .unique)
            .column("apps", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("revoked_at", type: .bigint)
            .run()
        try await db.create(table: "ll_admin_log")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("at", type: .bigint, .notNull)
            .column("credential", type: .text, .notNull)
            .column("operation", type: .text, .notNull)
            .column("target", type: .text, .notNull)
            .column("node", type: .text, .notNull)
            .run()
        try await db.create(index: "ll_admin_log_at").on("ll_admin_log").column("at").run()
    }
}
