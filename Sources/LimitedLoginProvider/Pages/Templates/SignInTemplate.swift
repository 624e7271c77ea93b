extension PageTemplates {
    /// The sign-in page: pick a pickable test user (at most a page of them, with a search by name, email
    /// or ID: a plain GET form), or email and password.
    static let signIn = """
    {{> head}}
    <style>
    ul.users { list-style: none; padding: 0; } ul.users li { margin: 6px 0; } .user-email { color: #65676b; }
    input[type=search] { font-size: 16px; padding: 8px; width: 70%; box-sizing: border-box; margin: 4px 0 12px; }
    </style>
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
