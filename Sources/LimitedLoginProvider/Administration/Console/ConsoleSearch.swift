/// A console list's search: the rows whose `search` text contains the query, ignoring case. Server-side,
/// so that it works without scripts (the page script filters the same rows as one types).
enum ConsoleSearch {
    static func filter(_ rows: [[String: Any]], by query: String) -> [[String: Any]] {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return rows }
        return rows.filter { ($0["search"] as? String)?.localizedCaseInsensitiveContains(query) ?? false }
    }
}
