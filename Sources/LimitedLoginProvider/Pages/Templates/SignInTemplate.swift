extension PageTemplates {
    /// The sign-in page: pick a pickable test user (at most a page of them, with a search by name, email
    /// or ID: a plain GET form), add one (name and email), or email and password.
    static let signIn = """
        {{> head}}
        <main>
        <h1 id="title">Log in to continue to {{{appName}}}</h1>
        {{#limited}}<p class="limited" id="limited-notice">Limited Login: {{{appName}}} will receive an ID token only, and cannot use it to call the Graph API.</p>{{/limited}}
        {{#errorMessage}}<p class="error" id="error-message" role="alert">{{{errorMessage}}}</p>{{/errorMessage}}
        {{#picker}}
        <h2>Test users</h2>
        <form method="get" action="{{{signInPath}}}" id="user-search" role="search">
        <input type="hidden" name="request" value="{{{request}}}">
        <label for="user-search-query">Find a test user by name, email or ID</label>
        <input type="search" id="user-search-query" name="q" value="{{{search}}}" maxlength="{{{searchLength}}}">
        <button type="submit" id="user-search-button">Search</button>
        </form>
        {{#noMatch}}<p id="user-search-empty">No test user matches {{{search}}}.</p>{{/noMatch}}
        {{#hasUsers}}
        <form method="post" action="{{{signInPath}}}" id="user-picker">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <ul class="users">
        {{#users}}
        <li><button type="submit" name="user_id" value="{{{id}}}" data-user-id="{{{id}}}" data-user-email="{{{email}}}">Log in as {{{name}}}</button> <span class="user-email">{{{email}}}</span></li>
        {{/users}}
        </ul>
        </form>
        {{/hasUsers}}
        {{#moreUsers}}<p id="more-users">The first {{{pickerSize}}} are shown: search to find the others.</p>{{/moreUsers}}
        <details id="add-user"><summary>Add a test user</summary>
        <form method="post" action="{{{signInPath}}}" id="add-user-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <label for="new-user-name">Name</label>
        <input type="text" id="new-user-name" name="new_user_name" required maxlength="100" autocomplete="off">
        <label for="new-user-email">Email (empty: one is made up)</label>
        <input type="email" id="new-user-email" name="new_user_email" maxlength="200" autocomplete="off">
        <p>The rest of the profile (birthday, gender) is made up. The new user is offered here without a password.</p>
        <button type="submit" id="add-user-button">Add and log in</button>
        </form>
        </details>
        {{/picker}}
        <h2>Email and password</h2>
        <form method="post" action="{{{signInPath}}}" id="password-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <label for="email">Email</label>
        <input type="email" id="email" name="email" value="{{{email}}}" autocomplete="username" required>
        <label for="pass">Password</label>
        <input type="password" id="pass" name="pass" autocomplete="current-password" required>
        <button type="submit" class="primary" id="login-button" name="login" value="1">Log In</button>
        </form>
        </main>
        </body>
        </html>
        """
}
