import HTTPTypes
import Hummingbird
import LimitedLoginCore

/// The sign-in page and form: pick a pickable test user, or email and password, within the sign-in limits.
extension DialogController {
    /// The most test users the sign-in page lists; a search finds the others.
    static let pickerSize = 20
    /// The longest search kept, in characters.
    static let maximumSearchLength = 100

    static let incorrectPassword = "The email or password you entered is incorrect."
    static let notPickable = "That test user cannot be picked: sign in with their email and password."
    static let pickerOff = "Picking a test user is turned off on this provider: sign in with email and password."
    static let notOffered = "That person is not one of this app's test users: pick one of the list, or sign in with email and password."

    static func tooManyAttempts(retryAfter: Int64) -> String {
        "Too many failed sign-ins for this account or from this address. Try again in \(retryAfter) second\(retryAfter == 1 ? "" : "s")."
    }

    // MARK: - GET /dialog/oauth/signin?request=…&q=…

    /// The picker's search (a plain GET form, so it works without JavaScript): the sign-in page again,
    /// listing the pickable users that match.
    func searchUsers(_ request: Request) async throws -> Response {
        let parameters: FormParameters
        let query: String?
        let search: String?
        do {
            parameters = try FormParameters(encoded: request.uri.query ?? "")
            query = try parameters.single("request")
            search = try parameters.single("q")
        } catch {
            return try errorPage(.badRequest("The search cannot be read: \(error.description)."))
        }
        let dialog: DialogRequest
        do { dialog = try await parser.parse(query: query ?? "") } catch {
            return try failure(error, afterPost: false)
        }
        if try await signedInUser(request) != nil {
            return Responses.redirect(to: "/dialog/oauth?" + dialog.query, afterPost: false)
        }
        return try await signInPage(
            dialog, request: request, error: nil, email: nil, status: .ok,
            search: search.map { String($0.prefix(Self.maximumSearchLength)) }
        )
    }

    // MARK: - POST /dialog/oauth/signin

    func signIn(_ request: Request) async throws -> Response {
        let (form, parsed) = try await postedDialog(request)
        let dialog: DialogRequest
        switch parsed {
        case .success(let request): dialog = request
        case .failure(let error): return try failure(error, afterPost: true)
        }
        let browser = services.csrf.authenticBrowserID(BrowserCookies.value(BrowserCookies.browser, in: request))
        if let refusal = try await spendFormToken(try value(form, "csrf_token"), for: .signIn, binding: browser) {
            return try errorPage(refusal, retrying: dialog)
        }
        let user: TestUserRecord
        if let name = try value(form, "new_user_name") {
            // Adding a user is offered where picking is: the refusal is picking's, shown where that one is.
            guard services.configuration.userPicker else {
                return try await signInPage(dialog, request: request, error: .picker(Self.pickerOff), email: nil, status: .forbidden)
            }
            let email = try value(form, "new_user_email")
            let address = ClientAddress.of(request, trusting: services.configuration.trustedProxies) ?? "unknown"
            switch try await addTestUser(name: name, email: email, app: dialog.app, address: address) {
            case .success(let added): user = added
            case .failure(let refusal):
                var response = try await signInPage(
                    dialog, request: request, error: .addUser(refusal.message, name: name, email: email ?? ""), email: nil, status: refusal.status)
                if let retryAfter = refusal.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
                return response
            }
        } else if let userID = try value(form, "user_id") {
            guard services.configuration.userPicker else {
                return try await signInPage(dialog, request: request, error: .picker(Self.pickerOff), email: nil, status: .forbidden)
            }
            // Only whom the page offers: the app's own test users and the people with a role on it (checked first,
            // and one answer for anyone else, unknown or not: the page tells nothing of other apps' users).
            guard let found = try await services.store.user(id: userID), try await isOffered(found.id, on: dialog.app) else {
                return try await signInPage(dialog, request: request, error: .picker(Self.notOffered), email: nil, status: .forbidden)
            }
            guard found.pickable else {
                return try await signInPage(dialog, request: request, error: .picker(Self.notPickable), email: nil, status: .forbidden)
            }
            user = found
        } else {
            let email = (try value(form, "email") ?? "").trimmingCharacters(in: .whitespaces)
            let password = try value(form, "pass") ?? ""
            let throttle = SignInThrottle(store: services.store, limits: services.configuration.signInLimits, gate: services.signInGate)
            // An unknown email, or a user without a password, is checked against a decoy hash: the same
            // work as a wrong password, so the answer's timing does not tell who exists.
            let found = try await services.store.userWithPasswordHash(email: email)
            let storedHash = found.flatMap { $0.1 }
            let address = ClientAddress.of(request, trusting: services.configuration.trustedProxies)
            let outcome = try await throttle.signIn(email: email, address: address) {
                await OffEventLoop.run { PasswordHasher.verify(password, againstUserHash: storedHash) }
            }
            switch (outcome, found) {
            case (.refused(let retryAfter), _):
                services.logger.notice("dialog sign-in refused: too many failed sign-ins", metadata: ["app": "\(dialog.app.id)"])
                var response = try await signInPage(
                    dialog, request: request, error: .password(Self.tooManyAttempts(retryAfter: retryAfter)), email: email,
                    status: .tooManyRequests
                )
                response.headers[.retryAfter] = String(retryAfter)
                return response
            case (.succeeded, let found?):
                user = found.0
            case (.succeeded, nil), (.failed, _):
                services.logger.info("dialog sign-in refused", metadata: ["app": "\(dialog.app.id)"])
                return try await signInPage(dialog, request: request, error: .password(Self.incorrectPassword), email: email, status: .unauthorized)
            }
        }
        // A new session at every sign-in, whatever session cookie came with the form (no fixation).
        let secret = try await services.store.createSession(userID: user.id, lifetime: services.configuration.sessionLifetime)
        var response = Responses.redirect(to: "/dialog/oauth?" + dialog.query, afterPost: true)
        response.setCookie(
            BrowserCookies.make(
                name: BrowserCookies.session, value: secret, maxAge: Int(services.configuration.sessionLifetime),
                secure: services.urls.isSecure
            ))
        return response
    }

    /// Whether the sign-in page offers this person to pick on this app: one of its test users, or someone with
    /// a role on it.
    private func isOffered(_ userID: String, on app: AppRecord) async throws -> Bool {
        if try await services.store.isTestUser(userID, ofApp: app.id) { return true }
        return try await services.store.role(appID: app.id, userID: userID) != nil
    }

    /// "Add a test user": a pickable test user of the dialog's app with this name and email (made up when
    /// empty) and the rest of their profile made up, created as the admin API creates one. Offered where
    /// picking is: a person who can pick the app's test users gains nothing by making one.
    private func addTestUser(name: String, email: String?, app: AppRecord, address: String) async throws -> Result<TestUserRecord, AdminError> {
        guard services.configuration.userPicker else { return .failure(AdminError(.forbidden, Self.pickerOff)) }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(AdminError(.badRequest, "Give the new test user's name.")) }
        let email = email?.trimmingCharacters(in: .whitespaces)
        var person = GeneratedPerson(name: trimmed, email: email?.isEmpty == false ? email : nil).fixture
        person.id = RandomIdentifiers.numericID()
        person.apps = [app.id]
        do { try ProviderFixtures(users: [person]).validate() } catch {
            return .failure(AdminError(.badRequest, AdminOperations.sentence(error.reason)))
        }
        if let retryAfter = await services.addedUsers.admit(address: address, now: ProviderTime.systemNow()) {
            services.logger.notice("test user not added on the sign-in page: too many from this address")
            var refusal = AdminError(.tooManyRequests, Self.tooManyAddedUsers(retryAfter: retryAfter))
            refusal.retryAfter = retryAfter
            return .failure(refusal)
        }
        do {
            try await FixtureLoader(store: services.store).create(person)
        } catch let error as StoreError {
            guard case .duplicate = error else { throw error }
            return .failure(AdminError(.conflict, "A test user with the email \(person.email) exists already: pick them or search for them."))
        }
        guard let id = person.id, let created = try await services.store.user(id: id) else { throw HTTPError(.internalServerError) }
        services.logger.info("test user added on the sign-in page", metadata: ["user": "\(created.id)"])
        return .success(created)
    }

    static func tooManyAddedUsers(retryAfter: Int64) -> String {
        let minutes = (retryAfter + 59) / 60
        return "Too many test users were added from this address. Try again in \(minutes) minute\(minutes == 1 ? "" : "s"), or pick one."
    }

    // MARK: - The page

    /// What went wrong on the sign-in page, shown beside the form it concerns.
    enum SignInError {
        /// The email and password form.
        case password(String)
        /// Picking a test user.
        case picker(String)
        /// "Add a test user", with what was typed (kept in the form).
        case addUser(String, name: String, email: String)
    }

    /// The sign-in page, with a fresh single-use form token bound to this browser's `ll_browser` cookie,
    /// which is issued here when the browser has none that this provider made.
    func signInPage(
        _ dialog: DialogRequest, request: Request, error: SignInError?, email: String?, status: HTTPResponse.Status,
        search: String? = nil
    ) async throws -> Response {
        let existing = services.csrf.authenticBrowserID(BrowserCookies.value(BrowserCookies.browser, in: request))
        let browser = existing ?? services.csrf.newBrowserID()
        var context: [String: Any] = [
            "title": "Log in to \(dialog.app.name)",
            "appName": dialog.app.name,
            "appInitial": Avatar.initial(of: dialog.app.name),
            "limited": dialog.limited,
            "email": email ?? "",
            "signInPath": Self.signInPath,
            "csrfToken": services.csrf.token(for: .signIn, binding: browser, now: ProviderTime.now()),
            "request": dialog.query,
            "picker": services.configuration.userPicker,
        ]
        // Only a present message opens its section (Mustache shows a section for an empty string too).
        switch error {
        case .password(let message)?: context["passwordError"] = message
        case .picker(let message)?: context["pickerError"] = message
        case .addUser(let message, let name, let email)?:
            context["addUserError"] = message
            context["newUserName"] = name
            context["newUserEmail"] = email
        case nil: break
        }
        if services.configuration.userPicker {
            let search = search?.trimmingCharacters(in: .whitespaces) ?? ""
            let found = try await services.store.pickableUsers(forApp: dialog.app.id, matching: search, limit: Self.pickerSize + 1)
            let users = found.prefix(Self.pickerSize).map {
                [
                    "id": $0.id, "name": $0.fullName, "email": $0.email, "initial": Avatar.initial(of: $0.fullName),
                    "avatarClass": Avatar.colorClass(for: $0.id),
                ]
            }
            context["users"] = Array(users)
            context["hasUsers"] = !users.isEmpty
            context["moreUsers"] = found.count > Self.pickerSize
            context["pickerSize"] = String(Self.pickerSize)
            context["search"] = search
            context["searchLength"] = String(Self.maximumSearchLength)
            context["noMatch"] = !search.isEmpty && users.isEmpty
        }
        services.metrics.dialogShown("signin")
        let html = try services.pages.render(.signIn, context)
        var response = Responses.html(html, status: status)
        if existing == nil {
            response.setCookie(BrowserCookies.make(name: BrowserCookies.browser, value: browser, maxAge: nil, secure: services.urls.isSecure))
        }
        return response
    }
}
