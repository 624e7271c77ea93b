import Testing

@testable import LimitedLoginVerifier

@Suite("The issuers and app IDs a claim is compared with")
struct ExactByteStringsTests {
    private func index(_ strings: ExactByteStrings, _ candidate: String) -> Int? {
        Array(candidate.utf8).withUnsafeBytes { strings.firstIndex(of: $0) }
    }

    @Test("the first string with exactly the candidate's bytes, in the order given")
    func firstExactMatch() {
        let strings = ExactByteStrings(["1234", "K42", "12345", "K42"])
        #expect(index(strings, "1234") == 0)
        #expect(index(strings, "12345") == 2)
        #expect(index(strings, "K42") == 1, "a repeat is found at its first place")
    }

    @Test("near misses and canonically equivalent spellings are not matches")
    func nearMisses() {
        let strings = ExactByteStrings(["K42", "https://www.facebook.com", "caf\u{E9}"])
        for candidate in ["\u{212A}42", "K4", "K421", " K42", "https://www.facebook.co", "https://www.facebook.com/", "cafe\u{301}", ""] {
            #expect(index(strings, candidate) == nil, "\(candidate.debugDescription)")
        }
        #expect(index(ExactByteStrings([String]()), "K42") == nil)
    }
}
