import Foundation

/// `serve --tls`: the local CA's certificate written where clients can read it: `--ca-file`, or for
/// `--exec` a temporary file the command gets in `LIMITED_LOGIN_CA_FILE`, so that it can trust the provider.
enum ServeCertificateAuthorityFile {
    /// Writes `pem` (nil: the provider serves plain HTTP, nothing is written); returns the file's path.
    static func write(_ pem: String?, to path: String?, forExec: Bool) throws -> String? {
        guard let pem else { return path }
        var path = path
        if path == nil, forExec {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-ca-\(UUID().uuidString).pem").path
        }
        if let path {
            // Ending in a newline, as `ca export` writes it: a file appended to a bundle (`cat ca.pem >> bundle`)
            // must not run its END line into the next BEGIN line.
            let text = pem.hasSuffix("\n") ? pem : pem + "\n"
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw CommandFailure.fail("limited-login serve: cannot write the CA certificate to \(path)", code: 73)
            }
        }
        return path
    }
}
