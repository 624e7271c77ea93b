/// The project's version: what `limited-login --version` prints.
/// Raised with each release; semantic versioning (0.x while the public API may still change).
public enum ProjectVersion {
    public static let current = "0.2.0"
}
