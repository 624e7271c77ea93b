extension PageTemplates {
    /// The consent page: the app, the mode, each permission in words; Continue or Cancel; and "Not you?",
    /// which signs this browser out and goes back to sign-in for the same request.
    static let consent = """
        {{> head}}
        <main>
        <h1 id="title">{{{appName}}} is requesting access to your information</h1>
        <p>Logged in as <strong id="user-name">{{{userName}}}</strong>.</p>
        {{#limited}}<p class="limited" id="limited-notice">Limited Login: {{{appName}}} will receive an ID token only, and cannot use it to call the Graph API.</p>{{/limited}}
        <form method="post" action="{{{confirmPath}}}" id="consent-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <ul class="permissions">
        {{#permissions}}
        <li><label><input type="checkbox" name="permission" value="{{{name}}}" id="permission-{{{name}}}"{{#required}} checked disabled{{/required}}{{^required}} checked{{/required}}> {{{words}}}{{#required}} (required){{/required}}</label></li>
        {{/permissions}}
        </ul>
        <button type="submit" class="primary" name="action" value="continue" id="continue-button">Continue as {{{firstName}}}</button>
        <button type="submit" name="action" value="cancel" id="cancel-button">Cancel</button>
        <p class="switch">Not {{{firstName}}}? <button type="submit" class="link" name="action" value="switch" id="switch-account-button">Switch account</button></p>
        </form>
        </main>
        </body>
        </html>
        """
}
