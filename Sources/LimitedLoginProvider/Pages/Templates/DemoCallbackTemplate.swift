extension PageTemplates {
    /// Where the printed demo dialog URL sends its response: shows what an app would receive. After a
    /// cancel or an error, "Try again" opens the same demo dialog request.
    static let demoCallback = """
        {{> head}}
        <main class="dialog">
        <h1 id="title">{{{heading}}}</h1>
        <p>This is what the app receives at its redirect URI.</p>
        <div class="scroll" role="region" aria-label="The response (scrolls sideways)" tabindex="0"><table id="response">
        {{#fields}}
        <tr><th scope="row">{{{name}}}</th><td><code>{{{value}}}</code></td></tr>
        {{/fields}}
        </table></div>
        {{#tryAgainURL}}<p><a href="{{{tryAgainURL}}}" id="try-again" class="button primary block">Try again</a></p>{{/tryAgainURL}}
        <p><a href="{{{homeURL}}}" id="back-to-app">Back to the app</a> (the provider's home page, which stands for the app here)</p>
        {{#hasClaims}}
        <h2>ID token claims (decoded)</h2>
        <pre id="claims">{{{claims}}}</pre>
        <p>Check it: <code>limited-login verify TOKEN --app-id {{{appID}}} --nonce {{{nonce}}} --discovery-url {{{discoveryURL}}}</code></p>
        {{/hasClaims}}
        </main>
        </body>
        </html>
        """
}
