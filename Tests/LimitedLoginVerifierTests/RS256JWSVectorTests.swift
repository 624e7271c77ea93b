import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginVerifier

@Suite("JWS vectors: the cases of Wycheproof's RS256 group, through CompactJWS and the verifier")
struct RS256JWSVectorTests {
    let fixture = VerifierFixture()

    @Test("each vector: CompactJWS's exact parse error or signature verdict, and the verifier's exact error", arguments: RS256JWSVectors.all)
    func vector(_ vector: RS256JWSVector) async {
        let parse: RS256JWSVector.Parse
        do {
            let jws = try CompactJWS(parsing: vector.token)
            parse = .parsed(signedByKey1: jws.isSigned(by: TestKeys.primary.publicKey))
        } catch {
            parse = .refused(error)
        }
        #expect(parse == vector.parse)
        #expect(await fixture.failure(vector.token) == vector.verification)
    }

    @Test("the set covers every case of Wycheproof's RS256 group, once each")
    func coverage() {
        let names = RS256JWSVectors.all.map(\.name)
        #expect(Set(names).count == names.count)
        let wycheproof = [
            "acceptsValid", "rejectsModifiedSignature", "rejectsMissingSignature", "rejectsMissingSignatureAndSeparator",
            "rejectsModifiedPayload", "rejectsMissingPayload", "rejectsMissingPayloadAndSeparator", "rejectsModifiedHeader",
            "rejectsMissingHeader", "rejectsMissingHeaderAndSeparator", "rejectsMissingHeaderAndSignature",
            "rejectsMissingHeaderSignatureAndSeparators", "rejectsEmptyString", "rejectsExtraEmptyComponent",
            "rejectsExtraComponent", "rejectsNoneAlgorithmAndMissingSignature", "rejectsValidJsonSerialization",
            "rejectsAttackerProvidedEmbeddedJwk",
        ]
        for name in wycheproof { #expect(names.contains(name), "missing \(name)") }
        #expect(names.filter { $0.hasPrefix("rejectsSymmetryConfusionAttacks") }.count == 4)
        #expect(names.filter { $0.hasPrefix("rejectsModifiedPadding") }.count == 8)
    }

    @Test("the embedded key did sign its token: only the refusal to take keys from the header stops it")
    func embeddedKeyReallySigned() throws {
        for vector in RS256JWSVectors.all where vector.name.hasPrefix("rejectsAttackerProvidedEmbeddedJwk") {
            #expect(try CompactJWS(parsing: vector.token).isSigned(by: TestKeys.secondary.publicKey), "\(vector.name)")
        }
    }
}
