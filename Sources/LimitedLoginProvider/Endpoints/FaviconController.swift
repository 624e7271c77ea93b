import Foundation
import Hummingbird
import NIOCore

/// `GET /favicon.ico`: the icon browsers ask for on every page (a 32×32 PNG in an ICO container), so that
/// their requests are answered and cached instead of filling the log and the error counts with 404s.
struct FaviconController: Sendable {
    func addRoutes(to router: Router<BasicRequestContext>) {
        router.getAndHead("/favicon.ico") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "image/x-icon", .cacheControl: "public, max-age=604800"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.icon))
            )
        }
    }

    /// A blue rounded square with a white L.
    static let icon: [UInt8] = Array(Data(base64Encoded: iconBase64) ?? Data())

    private static let iconBase64 =
        "AAABAAEAICAAAAEAIACUAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAFtJREFUeNpjYMABRGL3/6cmZiAGUNtSkhxDL8uxOoLelmM4YmQ7YKAshzuCGEXYwKgDRh0w6oBRB4w6YNQBA+4AYsGoA0YdQBUHDNt24WizfPB0zQZF53SguucACo8+XD95KxUAAAAASUVORK5CYII="
}
