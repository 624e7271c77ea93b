import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

@Suite("Verifier: headers of verified tokens are remembered by their exact bytes, and hide nothing")
struct HeaderCacheTests {
    let fixture = VerifierFixture()

    @Test("a verified token's header is remembered once; a second key's header is a second entry")
    func rememberedOnce() async throws {
        let verifier = fixture.verifier
        #expect(verifier.headers.count == 0)
        _ = try await verifier.verify(fixture.factory.token(), nonce: .exact(fixture.factory.nonce))
        #expect(verifier.headers.count == 1)
        let again = try await verifier.verify(fixture.factory.token { $0["email"] = "other@example.test" }, nonce: .exact(fixture.factory.nonce))
        #expect(again.claims.email == "other@example.test")
        #expect(again.keyID == "key-1")
        #expect(verifier.headers.count == 1)

        var second = fixture.factory
        second.key = TestKeys.secondary
        second.keyID = "key-2"
        let verified = try await verifier.verify(second.token(), nonce: .exact(fixture.factory.nonce))
        #expect(verified.keyID == "key-2")
        #expect(verifier.headers.count == 2)
    }

    @Test("only a token that passed every check leaves its header: bad signature, expired or wrong nonce do not")
    func onlyVerifiedTokens() async {
        let factory = fixture.factory
        let token = factory.token()
        let parts = token.split(separator: ".").map(String.init)
        var signature = Array(parts[2].utf8)
        signature[10] = signature[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let forged = "\(parts[0]).\(parts[1]).\(String(decoding: signature, as: UTF8.self))"
        #expect(await fixture.failure(forged) == .invalidSignature)
        let past = (factory.now.timeIntervalSince1970 - 3600).rounded()
        #expect(
            await fixture.failure(factory.token { $0["exp"] = .number(past) })
                == .expired(expiredAt: Date(timeIntervalSince1970: past), now: fixture.clock.now))
        #expect(await fixture.failure(token, nonce: .exact("another-nonce")) == .nonceMismatch)
        #expect(fixture.verifier.headers.count == 0)
    }

    @Test("a remembered header does not excuse the payload or the signature")
    func otherSegmentsStillChecked() async throws {
        let factory = fixture.factory
        _ = try await fixture.verifier.verify(factory.token(), nonce: .exact(factory.nonce))
        #expect(fixture.verifier.headers.count == 1)
        let parts = factory.token().split(separator: ".").map(String.init)
        // Same header bytes, broken payload or signature.
        #expect(
            await fixture.failure("\(parts[0]).\(parts[1])=.\(parts[2])")
                == .invalidBase64URL(.payload, .invalidCharacter(UInt8(ascii: "="), offset: parts[1].utf8.count)))
        let otherSignature = factory.token { $0["email"] = "other@example.test" }.split(separator: ".")[2]
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(otherSignature)") == .invalidSignature)
        let duplicate = factory.token(
            headerText: factory.headerText,
            payloadText: String(factory.claimsText.dropLast()) + #","sub":"someone-else"}"#
        )
        #expect(duplicate.hasPrefix(parts[0] + "."))
        #expect(await fixture.failure(duplicate) == .invalidJSON(.payload, .duplicateMemberName("sub")))
        #expect(await fixture.failure("\(parts[0]).\(parts[1]).\(parts[2]).") == .wrongSegmentCount(4))
    }

    @Test("a header that differs by one byte from a remembered one gets every header check")
    func differentBytesChecked() async throws {
        let factory = fixture.factory
        _ = try await fixture.verifier.verify(factory.token(), nonce: .exact(factory.nonce))
        let text = factory.headerText
        // The remembered header with a forbidden member, and the same members with alg changed.
        let withJKU = String(text.dropLast()) + #","jku":"https://attacker.test/jwks"}"#
        #expect(await fixture.failure(factory.token(headerText: withJKU, payloadText: factory.claimsText)) == .forbiddenHeaderParameter("jku"))
        let none = text.replacingOccurrences(of: "RS256", with: "none")
        let payload = Base64URL.encode(Array(factory.claimsText.utf8))
        #expect(await fixture.failure("\(fixture.headerSegment(none)).\(payload).") == .algorithmNotAllowed("none"))
        // The same JSON spelled with a space is other bytes: checked, and valid.
        let spaced = " " + text
        _ = try await fixture.verifier.verify(factory.token(headerText: spaced, payloadText: factory.claimsText), nonce: .exact(factory.nonce))
        #expect(fixture.verifier.headers.count == 2)
    }

    @Test("the cache keeps at most its capacity of headers, dropping the oldest")
    func bounded() async throws {
        let factory = fixture.factory
        for spaces in 0...(ValidatedHeaderCache.capacity + 2) {
            let header = String(repeating: " ", count: spaces) + factory.headerText
            _ = try await fixture.verifier.verify(factory.token(headerText: header, payloadText: factory.claimsText), nonce: .exact(factory.nonce))
        }
        #expect(fixture.verifier.headers.count == ValidatedHeaderCache.capacity)
        // The oldest (no leading space) was dropped; verifying it again still works and remembers it again.
        _ = try await fixture.verifier.verify(factory.token(), nonce: .exact(factory.nonce))
        #expect(fixture.verifier.headers.count == ValidatedHeaderCache.capacity)
    }
}
