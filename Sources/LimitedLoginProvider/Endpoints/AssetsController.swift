import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /assets/site-<hash>.css` and `GET /assets/pages-<hash>.js`: the pages' one stylesheet
/// (``Stylesheet``) and one script (``PageScript``), cacheable for a year because each path changes with
/// its content. Being files of this origin, they pass the pages' Content-Security-Policy (`'self'`),
/// which allows no inline script or style.
struct AssetsController: Sendable {
    func addRoutes(to router: Router<BasicRequestContext>) {
        Self.serve(Stylesheet.css, at: Stylesheet.path, type: "text/css; charset=utf-8", on: router)
        Self.serve(PageScript.source, at: PageScript.path, type: "text/javascript; charset=utf-8", on: router)
    }

    private static func serve(_ text: String, at path: String, type: String, on router: Router<BasicRequestContext>) {
        let bytes = ByteBuffer(string: text)
        router.getAndHead(RouterPath(path)) { _, _ in
            var headers: HTTPFields = [.contentType: type, .cacheControl: "public, max-age=31536000, immutable"]
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
        }
    }
}
