import LimitedLoginCore

extension DialogRequest {
    /// The request's `messenger_page_id`: the Facebook Page a `user_messenger_contact` grant lets contact
    /// the person. Read from the carried query, so that the sign-in and consent forms keep it; nil when
    /// absent, empty, or not digits (a Page ID).
    var messengerPageID: String? {
        guard let parameters = try? FormParameters(encoded: query), let value = (try? parameters.single("messenger_page_id")) ?? nil,
            !value.isEmpty, value.utf8.count <= 32, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return value
    }
}
