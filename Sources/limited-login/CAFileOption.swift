import ArgumentParser
import Foundation
import LimitedLoginVerifier
import NIOSSL

/// `--ca-file`: certificate authorities to trust beside the system's, for a provider serving HTTPS under its
/// own local CA (`serve --tls`). The same as `LIMITED_LOGIN_CA_FILE`, which `serve --tls --exec` sets for its
/// command; the option wins.
struct CAFileOption: ParsableArguments {
    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Also trust the certificate authorities in this PEM file over https, e.g. the one 'serve --tls' wrote (default: $LIMITED_LOGIN_CA_FILE).",
            valueName: "file"))
    var caFile: String?

    /// Makes the file the one every client of this process trusts (before any request), or says why it cannot be.
    func apply() -> String? {
        let path = caFile ?? ProcessInfo.processInfo.environment["LIMITED_LOGIN_CA_FILE"]
        guard let path, !path.isEmpty else { return nil }
        let flag = caFile != nil ? "--ca-file" : "LIMITED_LOGIN_CA_FILE"
        guard FileManager.default.isReadableFile(atPath: path) else {
            return "error: \(flag) \(path) cannot be read"
        }
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            return "error: \(flag) \(path) holds no PEM certificate ('limited-login ca export > ca.pem' writes the provider's)"
        }
        setenv("LIMITED_LOGIN_CA_FILE", path, 1)
        return nil
    }
}
