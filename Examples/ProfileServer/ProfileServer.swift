import ArgumentParser
import Foundation
import Hummingbird
import LimitedLoginCore
import LimitedLoginHummingbird
import LimitedLoginVerifier

/// An app's own server that trusts a person only through a verified Limited Login ID token.
///
///     swift run limited-login serve &
///     swift run limited-login-example-server --app-id 1000000000000001 --provider http://127.0.0.1:8080
///     curl -H "Authorization: Bearer $ID_TOKEN" -H "X-Limited-Login-Nonce: $RAW_NONCE" http://127.0.0.1:8081/me
///
/// The app logs in with the SHA-256 hex of a raw nonce it keeps, and sends the raw nonce along with the
/// token: whoever holds only the token (which carries the hash) cannot produce it.
@main
struct ProfileServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limited-login-example-server",
        abstract: "An example app server: GET /me answers the profile of a verified ID token (Authorization: Bearer)."
    )

    @Option(help: "The app's ID: tokens for another audience are refused.")
    var appID: String

    @Option(help: "The provider's base URL; its discovery document names the issuer and key set.")
    var provider = "http://127.0.0.1:8080"

    @Option(help: "The port to listen on (127.0.0.1); 0 picks a free one.")
    var port = 8081

    func run() async throws {
        guard let base = URL(string: provider), base.host != nil else { throw ValidationError("--provider must be a URL") }
        let verifier: TokenVerifier
        do {
            verifier = try await TokenVerifier.provider(
                discoveryURL: base.appendingPathComponent(".well-known/openid-configuration"), appID: appID
            )
        } catch {
            FileHandle.standardError.write(Data("error: cannot read the provider's discovery document: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
        let router = Router(context: BasicLimitedLoginRequestContext.self)
        router.get("/health") { _, _ in "ok" }
        router.group()
            .add(
                middleware: LimitedLoginAuthenticator<BasicLimitedLoginRequestContext>(
                    verifier: verifier, nonce: .sha256OfRawNonce(fromHeader: .limitedLoginNonce)
                )
            )
            .get("/me") { _, context -> Response in
                guard let identity = context.limitedLoginIdentity else { return Response(status: .unauthorized) }
                let body = try JSONEncoder().encode(MeResponse(identity.profile))
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(bytes: body)))
            }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let line = "Example server running at http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        )
        try await app.runService()
    }
}

/// What `GET /me` answers.
struct MeResponse: Encodable {
    var id: String
    var name: String?
    var email: String?
    var picture: String?
    var friendIDs: [String]?

    init(_ profile: Profile) {
        id = profile.userID
        name = profile.name
        email = profile.email
        picture = profile.imageURL?.absoluteString
        friendIDs = profile.friendIDs
    }
}
