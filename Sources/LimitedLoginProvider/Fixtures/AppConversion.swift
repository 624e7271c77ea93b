import Foundation
import LimitedLoginJOSE

/// The one translation between an app's wire shape (``ProviderFixtures/App``: the fixtures file, the
/// admin API, `export`) and its stored record.
extension ProviderFixtures.App {
    /// The app as the wire shape carries it, its secret included (the admin API and `export` show it).
    init(record app: AppRecord) {
        self.init(
            id: app.id, secret: app.secret, name: app.name, redirectURIs: app.redirectURIs, businessID: app.businessID,
            gaming: app.isGaming ? true : nil, urlSchemeSuffixes: app.urlSchemeSuffixes.isEmpty ? nil : app.urlSchemeSuffixes,
            requireAppSecretProof: app.requiresAppSecretProof ? true : nil, deauthorizeCallbackURL: app.deauthorizeCallbackURL,
            dataDeletionCallbackURL: app.dataDeletionCallbackURL, mode: app.mode == .development ? AppMode.development.rawValue : nil
        )
    }
}

extension AppRecord {
    /// The record a wire-shaped app is stored as; `secret` when the shape gives none.
    init(fixture app: ProviderFixtures.App, secret: String) {
        self.init(
            id: app.id, secret: app.secret ?? secret, name: app.name, businessID: app.businessID.flatMap { $0.isEmpty ? nil : $0 },
            redirectURIs: app.redirectURIs ?? [],
            isGaming: app.gaming ?? false, urlSchemeSuffixes: app.urlSchemeSuffixes ?? [], requiresAppSecretProof: app.requireAppSecretProof ?? false,
            deauthorizeCallbackURL: app.deauthorizeCallbackURL?.isEmpty == true ? nil : app.deauthorizeCallbackURL,
            dataDeletionCallbackURL: app.dataDeletionCallbackURL?.isEmpty == true ? nil : app.dataDeletionCallbackURL,
            mode: app.mode.flatMap(AppMode.init(rawValue:)) ?? .live
        )
    }
}
