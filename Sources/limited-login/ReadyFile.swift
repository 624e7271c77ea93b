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

    /// Removes the file, at start (a file left by an earlier run would be read as this run's: its URL, its
    /// admin token, its process ID to stop) and when serve stops (the provider it describes is gone). A file
    /// that is not there is fine; one that cannot be removed is reported.
    static func remove(_ path: String) {
        if unlink(path) != 0, errno != ENOENT {
            printErrorLine("limited-login serve: cannot remove the ready file \(path): \(String(cString: strerror(errno)))")
        }
    }
}
