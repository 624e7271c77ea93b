import Foundation
import LimitedLoginJOSE

/// How an admin command prints the provider's answer: for people by default (tables, times as ISO 8601
/// in UTC, one line for a change), or the provider's JSON as it came with `--json` (for scripts).
enum AdminOutput {
    /// Columns of a list: a title and how to read the cell from one entry.
    struct Column: Sendable {
        var title: String
        var cell: @Sendable (JSONObject) -> String

        /// The member `key`, formatted (`*_at` numbers as times).
        static func member(_ title: String, _ key: String) -> Column {
            Column(title: title) { entry in format(entry[key], key: key) }
        }
    }

    static let apps = [
        Column.member("ID", "id"), .member("NAME", "name"), .member("BUSINESS", "business_id"),
        .member("SECRET", "secret"), .member("REDIRECT URIS", "redirect_uris"),
    ]

    static let users = [
        Column.member("ID", "id"), .member("EMAIL", "email"),
        Column(title: "NAME") { entry in
            [entry["first_name"]?.stringValue, entry["last_name"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        },
        .member("APPS", "apps"), .member("FRIENDS", "friends"), .member("PICKABLE", "pickable"),
    ]

    static let keys = [
        Column.member("KID", "kid"), .member("STATE", "state"), .member("CREATED", "created_at"),
        .member("SIGNS FROM", "signs_from"), .member("RETIRED", "retired_at"), .member("UNPUBLISHED", "unpublished_at"),
    ]

    static let scenarios = [
        Column.member("ID", "id"), .member("APP", "app_id"), .member("USER", "user_id"), .member("OUTCOME", "outcome"),
        Column(title: "DETAIL") { entry in
            if let claims = entry["claims"] { return String(decoding: JSONSerializer.serialize(claims), as: UTF8.self) }
            guard let error = entry["error"]?.stringValue else { return "-" }
            return "\(error) (\(format(entry["code"], key: "code"))): \(entry["message"]?.stringValue ?? "")"
        },
    ]

    /// The entries of `answer[listKey]` as a table, or a line saying there are none.
    static func table(_ answer: JSONValue, listKey: String, columns: [Column], empty: String) -> String {
        let entries = answer.objectValue?[listKey]?.arrayValue?.compactMap(\.objectValue) ?? []
        guard !entries.isEmpty else { return empty }
        let rows = [columns.map(\.title)] + entries.map { entry in columns.map { $0.cell(entry) } }
        let widths = columns.indices.map { index in rows.map { $0[index].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// One object as `key: value` lines (keys as the provider names them, times as ISO 8601).
    static func fields(_ answer: JSONValue) -> String {
        guard let object = answer.objectValue else { return format(answer, key: "") }
        let width = object.map(\.key.count).max() ?? 0
        return object.map { member in
            (member.key + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0) + " " + format(member.value, key: member.key)
        }.joined(separator: "\n")
    }

    /// A value for a cell or a line: strings as they are, arrays joined, `*_at` and `signs_from` numbers as
    /// UTC times, nothing as `-`.
    static func format(_ value: JSONValue?, key: String) -> String {
        switch value {
        case nil, .null?: return "-"
        case .string(let text)?: return text.isEmpty ? "-" : text
        case .bool(let flag)?: return flag ? "yes" : "no"
        case .number(let number)?:
            if key.hasSuffix("_at") || key == "signs_from" || key == "now" { return time(number) }
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .array(let items)?:
            return items.isEmpty ? "-" : items.map { format($0, key: "") }.joined(separator: ", ")
        case .object(let object)?:
            return object["name"]?.stringValue ?? String(decoding: JSONSerializer.serialize(.object(object)), as: UTF8.self)
        }
    }

    /// Seconds since 1970 as `2026-11-23T17:50:59Z`.
    static func time(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}
