import LimitedLoginCore

/// A console form the provider refused, kept to show again with what was typed (a password never).
struct ConsoleKeptForm: Sendable {
    /// The action's name (`create-app`).
    let action: String
    /// Each field's value as typed, and the flags the templates need for selects (`development`,
    /// `isError`, `isClaims`, `isEnabled`).
    let values: [String: String]

    init(action: String, form: FormParameters) {
        self.action = action
        var values: [String: String] = [:]
        for pair in form.pairs where pair.name != "csrf" && !pair.name.contains("password") && values[pair.name] == nil {
            values[pair.name] = pair.value
        }
        if values["mode"] == "development" { values["development"] = "1" }
        if values["outcome"] == "error" { values["isError"] = "1" }
        if values["outcome"] == "claims" { values["isClaims"] = "1" }
        if values["tracking"] == "enabled" { values["isEnabled"] = "1" }
        self.values = values
    }

    /// The templates' name for it: `kept_create_app`.
    var contextKey: String { "kept_" + action.replacingOccurrences(of: "-", with: "_") }
}
