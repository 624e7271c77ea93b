import Testing

@testable import LimitedLoginProvider

@Suite("Pages: templates")
struct PageTemplateTests {
    /// The templates are parsed on first use rather than at start, so a template that does not parse would
    /// first show on the page that uses it: every page is rendered here, each by a renderer of its own (the
    /// first page of a library also adds the head), then all by one.
    @Test("every page's template parses and renders, first or after the others")
    func everyPageRenders() throws {
        for page in PageRenderer.Page.allCases {
            let html = try PageRenderer().render(page, ["title": "T<itle"])
            #expect(html.contains("<!DOCTYPE html>"), "\(page): \(html.prefix(200))")
        }
        let shared = PageRenderer()
        for page in PageRenderer.Page.allCases.reversed() {
            _ = try shared.render(page, [:])
        }
    }
}
