extension PageTemplates {
    /// An error the dialog cannot send back to the app, or a page that does not exist (with a link home).
    /// When the dialog request it belongs to is known and still good, "Try again" reopens that request; a
    /// person an app in Development mode refuses gets "Switch account" (the consent form's action).
    static let error = """
        {{> head}}
        <main class="dialog">
        <h1 id="title">{{{title}}}</h1>
        <p class="error" id="error-message">{{{message}}}</p>
        {{#retryURL}}<p><a href="{{{retryURL}}}" id="try-again" class="button primary block">Try again</a></p>{{/retryURL}}
        {{#switchAccount}}<form method="post" action="{{{confirmPath}}}" id="switch-account-form">
        <input type="hidden" name="csrf_token" value="{{{csrfToken}}}">
        <input type="hidden" name="request" value="{{{request}}}">
        <button type="submit" class="primary block" name="action" value="switch" id="switch-account-button">Switch account</button>
        </form>{{/switchAccount}}
        {{#homeURL}}<p><a href="{{{homeURL}}}" id="home-link">Go to the provider's home page</a></p>{{/homeURL}}
        </main>
        </body>
        </html>
        """
}
