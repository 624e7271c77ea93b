/// The Facebook host name the current request came in under, if any (read by discovery). Set by
/// ``ProviderRequestMiddleware``, which also refuses, with a 404 as on the real service, a path that host
/// does not serve (``FacebookHosts``), so a client that calls the wrong host finds out here rather than in
/// production. Requests to any other host name pass unchanged.
enum FacebookHostContext {
    @TaskLocal static var host: String?
}
