extension PageTemplates {
    /// The sign-in page: pick a test user, or email and password.
    static let signIn = """
    {{> head}}
    <main>
    <h1 id="title">Log in to continue to {{{appName}}}</h1>
    {{#limited}}<p class="limited" id="limited-notice">Limited Login: {{{appName}}} will receive an ID token only, and cannot use it to call the Graph API.</p>{{/limited}}
    {{#errorMessage}}<p class="error" id="error-message" role="alert">{{{errorMessage}}}</p>{{/errorMessage}}
    {{#hasUsers}}
    <h2>Test users</h2>
    <div class="users">
    {{#users}}
    <form method="post" action="{{{signInPath}}}">
    <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
    <input type="hidden" name="request" value="{{{request}}}">
    <input type="hidden" name="user_id" value="{{{id}}}">
    <button type="submit" name="pick" value="{{{id}}}" data-user-id="{{{id}}}">Log in as {{{name}}}</button>
    </form>
    {{/users}}
    </div>
    {{/hasUsers}}
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
