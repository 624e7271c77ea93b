extension PageTemplates {
    /// The sign-in page, laid out like the real service's mobile dialog: the app, email and password
    /// first, then the test users as a sorted list of rows (at most a page of them, with a search by name,
    /// email or ID: a plain GET form, filtering as one types where scripts run), and "Add a test user" folded
    /// until opened (open when its form was refused). An error stands beside the form it concerns (`id="error-message"`, one at a time), and the
    /// field to correct takes the focus (the password after a wrong one, the name after a refused new user).
    static let signIn = """
        {{> head}}
        <main class="dialog">
        <div class="app-identity"><span class="app-icon" aria-hidden="true">{{{appInitial}}}</span><span id="app-name">{{{appName}}}</span></div>
        <h1 id="title">Log in to continue to {{{appName}}}</h1>
        {{#limited}}<p class="limited" id="limited-notice">Limited Login: {{{appName}}} will receive an ID token only, and cannot use it to call the Graph API.</p>{{/limited}}
        <form method="post" action="{{{signInPath}}}" id="password-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <label for="email">Email</label>
        <input type="email" id="email" name="email" value="{{{email}}}" autocomplete="username" required{{#passwordError}} aria-invalid="true" aria-describedby="error-message"{{/passwordError}}>
        <label for="pass">Password</label>
        <input type="password" id="pass" name="pass" autocomplete="current-password" required{{#passwordError}} aria-invalid="true" aria-describedby="error-message" autofocus{{/passwordError}}>
        {{#passwordError}}<p class="field-error" id="error-message" role="alert">{{{passwordError}}}</p>{{/passwordError}}
        <button type="submit" class="primary block" id="login-button" name="login" value="1">Log In</button>
        </form>
        {{^picker}}{{#pickerError}}<p class="field-error" id="error-message" role="alert">{{{pickerError}}}</p>{{/pickerError}}{{/picker}}
        {{#picker}}
        <h2 class="divider" id="test-users-heading">or pick a test user</h2>
        <form method="get" action="{{{signInPath}}}" id="user-search" role="search" class="search">
        <input type="hidden" name="request" value="{{{request}}}">
        <div class="grow"><label for="user-search-query">Find a test user by name, email or ID</label>
        <input type="search" id="user-search-query" name="q" value="{{{search}}}" maxlength="{{{searchLength}}}" data-filter="user-list" autocomplete="off"></div>
        <button type="submit" id="user-search-button">Search</button>
        </form>
        {{#pickerError}}<p class="field-error" id="error-message" role="alert">{{{pickerError}}}</p>{{/pickerError}}
        {{#noMatch}}<p id="user-search-empty">No test user matches {{{search}}}.</p>{{/noMatch}}
        {{#hasUsers}}
        <form method="post" action="{{{signInPath}}}" id="user-picker">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <ul class="user-list" id="user-list" aria-labelledby="test-users-heading">
        {{#users}}
        <li data-search="{{{name}}} {{{email}}} {{{id}}}"><button type="submit" class="user-row" name="user_id" value="{{{id}}}" data-user-id="{{{id}}}" data-user-email="{{{email}}}"><span class="avatar {{{avatarClass}}}" aria-hidden="true">{{{initial}}}</span><span class="user-text"><span class="user-name"><span class="visually-hidden">Log in as </span>{{{name}}}</span><span class="user-email">{{{email}}}</span></span></button></li>
        {{/users}}
        </ul>
        </form>
        {{/hasUsers}}
        {{#moreUsers}}<p id="more-users" class="muted">The first {{{pickerSize}}} by name are shown: search to find the others.</p>{{/moreUsers}}
        <section aria-labelledby="add-user-heading"><details id="add-user"{{#addUserError}} open{{/addUserError}}>
        <summary id="add-user-heading">Add a test user</summary>
        <form method="post" action="{{{signInPath}}}" id="add-user-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <label for="new-user-name">Name</label>
        <input type="text" id="new-user-name" name="new_user_name" value="{{{newUserName}}}" required maxlength="100" autocomplete="off"{{#addUserError}} aria-invalid="true" aria-describedby="error-message" autofocus{{/addUserError}}>
        <label for="new-user-email">Email (empty: one is made up)</label>
        <input type="email" id="new-user-email" name="new_user_email" value="{{{newUserEmail}}}" maxlength="200" autocomplete="off"{{#addUserError}} aria-invalid="true" aria-describedby="error-message"{{/addUserError}}>
        {{#addUserError}}<p class="field-error" id="error-message" role="alert">{{{addUserError}}}</p>{{/addUserError}}
        <p class="muted">The rest of the profile (birthday, gender) is made up. The new user is offered here without a password.</p>
        <button type="submit" class="block" id="add-user-button">Add and log in</button>
        </form>
        </details></section>
        {{/picker}}
        </main>
        </body>
        </html>
        """
}
