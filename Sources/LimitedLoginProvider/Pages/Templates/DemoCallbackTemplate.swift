extension PageTemplates {
    /// Where the printed demo dialog URL sends its response: shows what an app would receive.
    static let demoCallback = """
        {{> head}}
        <main>
        <h1 id="title">{{{heading}}}</h1>
        <p>This is what the app receives at its redirect URI.</p>
        <table id="response">
        {{#fields}}
        <tr><th>{{{name}}}</th><td><code>{{{value}}}</code></td></tr>
        {{/fields}}
        </table>
        <p><a href="{{{retryURL}}}" id="back-to-app">Back to the app</a> (the provider's home page, which stands for the app here)</p>
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
