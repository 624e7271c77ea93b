import Testing

@testable import LimitedLoginProvider

@Suite("Prepared documents: If-None-Match against the ETag")
struct PreparedDocumentTests {
    let document = PreparedDocument(Array(#"{"keys":[]}"#.utf8), cacheControl: "public, max-age=3600")

    @Test("the validator is the body's: equal bytes, equal ETag; other bytes, another")
    func validator() {
        #expect(document.eTag == PreparedDocument(Array(#"{"keys":[]}"#.utf8), cacheControl: "no-store").eTag)
        #expect(document.eTag != PreparedDocument(Array(#"{"keys":[1]}"#.utf8), cacheControl: "public, max-age=3600").eTag)
    }

    @Test("matches: the tag, a weak form of it, one of a list (spaces and tabs around), or *")
    func matches() {
        let tag = document.eTag
        for condition in [tag, "W/\(tag)", " \(tag) ", "\"a\", \(tag)", "\"a\",\t\(tag)\t", "*", "\"a\", *"] {
            #expect(PreparedDocument.matches(condition, eTag: tag), "\(condition)")
        }
    }

    @Test("does not match: another tag, the tag unquoted or cut, an empty header")
    func doesNotMatch() {
        let tag = document.eTag
        for condition in ["\"other\"", String(tag.dropFirst().dropLast()), String(tag.dropLast()), "", "W/", "\"\(tag)\""] {
            #expect(!PreparedDocument.matches(condition, eTag: tag), "\(condition)")
        }
    }
}
