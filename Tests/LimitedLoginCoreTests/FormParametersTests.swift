import Testing

@testable import LimitedLoginCore

/// Query strings and form bodies, read and written byte by byte (issue #17 replaced a reader that split by
/// Character and a writer that appended a byte at a time).
@Suite("FormParameters: reading and writing forms")
struct FormParametersTests {
    private func pairs(_ text: String) throws -> [String] {
        try FormParameters(encoded: text).pairs.map { "\($0.name)=\($0.value)" }
    }

    @Test("pairs in order; empty pieces skipped; a name without = has an empty value; only the first = splits")
    func splitting() throws {
        #expect(try pairs("a=1&b=2&a=3") == ["a=1", "b=2", "a=3"])
        #expect(try pairs("&&a=1&&") == ["a=1"])
        #expect(try pairs("flag&b=") == ["flag=", "b="])
        #expect(try pairs("=v") == ["=v"])
        #expect(try pairs("a=b=c") == ["a=b=c"])
        #expect(try pairs("") == [])
        #expect(try pairs("&") == [])
    }

    @Test("+ is a space; %XX in either case is a byte; multi-byte UTF-8, escaped or raw, is kept")
    func decoding() throws {
        #expect(try pairs("q=a+b%20c%2b%2B") == ["q=a b c++"])
        #expect(try pairs("n%61me=caf%C3%A9") == ["name=café"])
        #expect(try pairs("raw=café&x=日本") == ["raw=café", "x=日本"])
        #expect(try pairs("redirect_uri=https%3A%2F%2Fapp.example%2Fcb%3Fa%3D1%26b%3D2") == ["redirect_uri=https://app.example/cb?a=1&b=2"])
    }

    @Test("a piece of a larger string reads the same as the string alone")
    func substring() throws {
        let whole = "https://x.example/cb?ignored#a=1&b=%41"
        let fragment = whole[whole.index(after: whole.firstIndex(of: "#")!)...]
        #expect(try FormParameters(encoded: fragment).pairs.map { "\($0.name)=\($0.value)" } == ["a=1", "b=A"])
    }

    @Test("& and = split as bytes, as WHATWG's form reader does, even before a combining mark")
    func byteSeparators() throws {
        // "=\u{301}" is one Character; splitting by Character would not have seen the = at all.
        #expect(try pairs("a=\u{301}x&b\u{301}=y") == ["a=\u{301}x", "b\u{301}=y"])
    }

    @Test("a malformed escape names its parameter: badPercentEncoding")
    func badEscape() {
        #expect(throws: FormParametersError.badPercentEncoding(name: "nonce")) { try FormParameters(encoded: "nonce=ab%2") }
        #expect(throws: FormParametersError.badPercentEncoding(name: "nonce")) { try FormParameters(encoded: "nonce=%zz") }
        #expect(throws: FormParametersError.badPercentEncoding(name: "nonce")) { try FormParameters(encoded: "ok=1&nonce=%") }
        // A bad name is named by its first 40 characters, as read.
        let long = String(repeating: "n", count: 50) + "%G1"
        #expect(throws: FormParametersError.badPercentEncoding(name: String(repeating: "n", count: 40))) { try FormParameters(encoded: long + "=1") }
    }

    @Test("an escape that is not UTF-8 names its parameter: notUTF8")
    func notUTF8() {
        #expect(throws: FormParametersError.notUTF8(name: "state")) { try FormParameters(encoded: "state=%FF") }
        #expect(throws: FormParametersError.notUTF8(name: "state")) { try FormParameters(encoded: "state=%C3") }
        #expect(throws: FormParametersError.notUTF8(name: "%C3")) { try FormParameters(encoded: "%C3=1") }
    }

    @Test("single refuses a repeated name: repeated")
    func repeated() throws {
        let form = try FormParameters(encoded: "nonce=a&nonce=b&state=s")
        #expect(throws: FormParametersError.repeated("nonce")) { try form.single("nonce") }
        #expect(try form.single("state") == "s")
        #expect(try form.single("absent") == nil)
        #expect(form.all("nonce") == ["a", "b"])
    }

    @Test("encoding: unreserved bytes as they are, space as +, every other byte as %XX; read back unchanged")
    func encoding() throws {
        #expect(FormParameters.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(FormParameters.encode("a b") == "a+b")
        #expect(FormParameters.encode("a+b&c=d/é") == "a%2Bb%26c%3Dd%2F%C3%A9")
        #expect(FormParameters.encode("") == "")
        var form = FormParameters()
        form.append("id_token", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln-_")
        form.append("state", "a b&c=d%é")
        form.append("granted_scopes", "email,openid")
        form.append("", "")
        #expect(form.encoded == "id_token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln-_&state=a+b%26c%3Dd%25%C3%A9&granted_scopes=email%2Copenid&=")
        #expect(FormParameters().encoded == "")
        let values = ["", " ", "+", "%", "&=&=", "日本語 text", "\u{0}\u{7F}", String(repeating: "x", count: 5000)]
        for value in values {
            var written = FormParameters()
            written.append("k", value)
            written.append("v", value)
            #expect(try FormParameters(encoded: written.encoded).pairs.map(\.value) == [value, value])
        }
    }
}
