import ArgumentParser
import Foundation
import LimitedLoginJOSE

/// `limited-login ca export`: the certificate of the local certificate authority that `serve --tls` made.
struct CACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "The local certificate authority of a provider started with 'serve --tls'.",
        subcommands: [Export.self]
    )

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print the local CA's certificate (PEM), to install where clients must trust the provider.",
            discussion: """
                Trusting this certificate means trusting every certificate the provider signs, for any host name,
                www.facebook.com included: install it on test devices, simulators and CI machines only.

                  Debian, Ubuntu:   limited-login ca export > /usr/local/share/ca-certificates/limited-login.crt && update-ca-certificates
                  iOS Simulator:    limited-login ca export > ca.pem && xcrun simctl keychain booted add-root-cert ca.pem
                  Android emulator: install ca.pem as a user CA (Settings > Security > Encryption & credentials), and let the
                                    app trust user CAs in its network security configuration (debug builds)
                  Chromium:         certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n limited-login -i ca.pem

                Over https on a loopback address the provider's own certificate is not checked (nothing else can answer
                there); elsewhere give the CA with LIMITED_LOGIN_CA_FILE.
                """
        )

        @OptionGroup var connection: AdminConnection

        @Flag(
            name: .customLong("include-key"),
            help: "Print the CA's private key too (PEM, after the certificate). Whoever has it can impersonate any host to clients that trust the CA."
        )
        var includeKey = false

        @Option(
            name: .customLong("output"),
            help: ArgumentHelp(
                "Write to FILE instead of standard output: whole or not at all, readable by you only (mode 0600 from its first byte) when it holds the key.",
                valueName: "file"))
        var output: String?

        func validate() throws {
            if let output, let problem = PrivateFile.problem(writing: output, flag: "--output") { throw ValidationError(problem) }
        }

        func run() async throws {
            let answer = try await AdminRequest.send(connection, path: "/_admin/ca" + (includeKey ? "?include_key=true" : ""), method: .GET)
            guard let certificate = answer.objectValue?["certificate"]?.stringValue else {
                throw CommandFailure.fail("limited-login: the provider's answer holds no certificate")
            }
            var output = certificate.hasSuffix("\n") ? String(certificate.dropLast()) : certificate
            if includeKey, let key = answer.objectValue?["private_key"]?.stringValue {
                output += "\n" + (key.hasSuffix("\n") ? String(key.dropLast()) : key)
            }
            guard let file = self.output else {
                // A redirect (`> ca-key.pem`) makes a file with the umask's mode, often readable by everyone.
                if includeKey, isatty(STDERR_FILENO) == 1 {
                    printErrorLine("limited-login: warning: the CA's private key is on standard output; --output FILE writes it readable by you only")
                }
                printLine(output)
                return
            }
            do {
                if includeKey {
                    try PrivateFile.write(Data((output + "\n").utf8), to: file)
                } else {
                    try Data((output + "\n").utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
                }
            } catch {
                throw CommandFailure.fail("limited-login ca export: \(error)")
            }
        }
    }
}
