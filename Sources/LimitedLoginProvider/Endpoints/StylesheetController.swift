import Hummingbird
import NIOCore

/// `GET /assets/site-<hash>.css`: the pages' one stylesheet (``Stylesheet``), cacheable for a year
/// because its path changes with its content.
struct StylesheetController: Sendable {
    func addRoutes(to router: Router<BasicRequestContext>) {
        let bytes = ByteBuffer(string: Stylesheet.css)
        router.get(RouterPath(Stylesheet.path)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=31536000, immutable"],
                body: .init(byteBuffer: bytes)
            )
        }
    }
}
