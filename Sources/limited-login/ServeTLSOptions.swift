import ArgumentParser

/// `serve`'s HTTPS options (`--tls`, with a local certificate authority kept in the store).
struct ServeTLSOptions: ParsableArguments {
    @Flag(
        name: .customLong("tls"),
        help:
            "Serve HTTPS with a certificate from a local certificate authority (made once, kept in the store) for this address and www., m., limited., www.limited., graph., ep1. and ep2.facebook.com; tokens then carry the real issuer, https://www.facebook.com. Trust the CA ('limited-login ca export') where clients run."
    )
    var tls = false

    @Option(name: .customLong("ca-file"), help: "With --tls: write the local CA's certificate (PEM, no private key) to this file at start.")
    var caFile: String?

    func validate() throws {
        if caFile != nil, !tls { throw ValidationError("--ca-file goes with --tls.") }
    }
}
