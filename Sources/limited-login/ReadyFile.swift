import Foundation
import LimitedLoginJOSE
import LimitedLoginProvider

/// `serve --ready-file PATH`: one JSON object, written once the provider accepts connections, that tells
/// a test everything it needs (addresses, admin token, apps and users). Written through ``PrivateFile``: a
/// reader never sees half of it, and it is readable by the owner only from its first byte (it holds the
/// admin token).
enum ReadyFile {
    static func document(provider: LimitedLoginProvider, apps: [AppRecord], users: [TestUserRecord]) -> JSONValue {
        let urls = provider.urls
        return .object([
            "url": .string(urls.baseURL), "issuer": .string(urls.issuer), "discovery_url": .string(urls.discoveryURL),
            "jwks_url": .string(urls.jwksURL), "certs_url": .string(urls.certificatesURL), "admin_token": .string(provider.adminToken),
            "pid": .number(Double(ProcessInfo.processInfo.processIdentifier)),
            "apps": .array(apps.map { .object(["id": .string($0.id), "name": .string($0.name), "secret": .string($0.secret)]) }),
            "users": .array(users.map { .object(["id": .string($0.id), "email": .string($0.email), "name": .string($0.fullName)]) }),
        ])
    }

    static func write(_ document: JSONValue, to path: String) throws(PrivateFile.Problem) {
        try PrivateFile.write(Data(JSONSerializer.prettyPrinted(document).utf8 + [UInt8(ascii: "\n")]), to: path)
    }
}
