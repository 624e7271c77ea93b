extension PageTemplates {
    /// The consent page: the app, who is logged in, each permission in the real service's words (the
    /// required one marked, the optional ones to untick); Continue or Cancel; and "Not you?", which signs
    /// this browser out and goes back to sign-in for the same request.
    static let consent = """
        {{> head}}
        <main class="dialog">
        <div class="app-identity"><span class="app-icon" aria-hidden="true">{{{appInitial}}}</span><span id="app-name">{{{appName}}}</span></div>
        <h1 id="title">{{{appName}}} is requesting access to your information</h1>
        <p class="signed-in-as"><span class="avatar {{{avatarClass}}}" aria-hidden="true">{{{userInitial}}}</span><span>Logged in as <strong id="user-name">{{{userName}}}</strong></span></p>
        {{#limited}}<p class="limited" id="limited-notice">Limited Login: {{{appName}}} will receive an ID token only, and cannot use it to call the Graph API.</p>{{/limited}}
        <form method="post" action="{{{confirmPath}}}" id="consent-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <fieldset>
        <legend>{{{appName}}} will receive:</legend>
        <ul class="permissions">
        {{#permissions}}
        <li><label class="check" for="permission-{{{name}}}"><input type="checkbox" name="permission" value="{{{name}}}" id="permission-{{{name}}}"{{#required}} checked disabled{{/required}}{{^required}} checked{{/required}}> {{{words}}}</label>{{#required}}<span class="tag">Required</span>{{/required}}{{^required}}<span class="tag">Optional</span>{{/required}}</li>
        {{/permissions}}
        </ul>
        </fieldset>
        {{#hasOptional}}<p class="muted" id="optional-hint">Untick what you do not want to share: {{{appName}}} gets the rest, and may ask again later.</p>{{/hasOptional}}
        <button type="submit" class="primary block" name="action" value="continue" id="continue-button">Continue as {{{firstName}}}</button>
        <button type="submit" class="block" name="action" value="cancel" id="cancel-button">Cancel</button>
        <p class="switch">Not {{{firstName}}}? <button type="submit" class="link" name="action" value="switch" id="switch-account-button">Switch account</button></p>
        </form>
        </main>
        </body>
        </html>
        """
}
