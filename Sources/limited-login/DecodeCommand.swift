import ArgumentParser
import Foundation
import LimitedLoginJOSE

struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Show a token's header and claims WITHOUT verifying it.",
        discussion: "Nothing printed by decode is trustworthy: use 'verify' to decide whether a token is authentic."
    )

    @Argument(help: "The token. Leave out, or use '-', to read it from standard input.")
    var token: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        let tokenText: String
        do { tokenText = try TokenInput.read(token) } catch { throw CommandFailure.fail("error: \(error)", code: 2) }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(parsing: tokenText)
        } catch {
            throw CommandFailure.fail("error: cannot decode: \(error)")
        }
        if json {
            let output: JSONValue = ["verified": false, "header": .object(jws.header), "claims": .object(jws.payload)]
            printLine(JSONSerializer.prettyPrinted(output))
            return
        }
        printLine("UNVERIFIED: the signature has not been checked; do not trust these claims.")
        printLine("header:")
        printLine(JSONSerializer.prettyPrinted(.object(jws.header)))
        printLine("claims:")
        printLine(JSONSerializer.prettyPrinted(.object(jws.payload)))
        var readableTimes: [String] = []
        for name in ["iat", "exp"] {
            if let seconds = jws.payload[name]?.numberValue {
                readableTimes.append("\(name) = \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds)))")
            }
        }
        if !readableTimes.isEmpty { printLine(readableTimes.joined(separator: ", ")) }
    }
}
