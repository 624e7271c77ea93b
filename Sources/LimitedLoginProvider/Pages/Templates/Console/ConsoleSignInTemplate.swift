extension PageTemplates {
    /// The console's sign-in: the admin token, or a team's credential (its apps only).
    static let consoleSignIn = """
        {{> head}}
        <main class="dialog">
        <h1 id="title">Sign in to the console</h1>
        <p>The console is for testers: apps, test users, friendships, grants, signing keys, the clock, tokens and the last logins.
        Give the provider's admin token (<code>serve</code> prints it on its first start; <code>LIMITED_LOGIN_ADMIN_TOKEN</code> sets it),
        or your team's credential (<code>llc_…</code>), which shows only your apps and their test users.</p>
        <form method="post" action="/_console/signin" id="console-signin">
        <label for="admin-token">Admin token</label>
        <input type="password" id="admin-token" name="admin_token" autocomplete="current-password" required{{#errorMessage}} aria-invalid="true" aria-describedby="error-message"{{/errorMessage}}>
        {{#errorMessage}}<p class="field-error" id="error-message" role="alert">{{{errorMessage}}}</p>{{/errorMessage}}
        <button type="submit" class="primary block" id="console-signin-button">Sign in</button>
        </form>
        </main>
        </body>
        </html>
        """
}
