extension PageTemplates {
    /// The home page: what this provider serves, its apps and test users.
    static let home = """
        {{> head}}
        <main>
        <h1 id="title">limited-login provider</h1>
        <p><a href="/_console" id="console-link">Open the console</a>: apps, test users, friendships, grants, keys, the clock and the last logins (sign in with the admin token).</p>
        <table>
        <tr><th>Base URL</th><td><code id="base-url">{{{baseURL}}}</code></td></tr>
        <tr><th>Issuer</th><td><code id="issuer">{{{issuer}}}</code></td></tr>
        <tr><th>Discovery</th><td><a href="{{{discoveryURL}}}"><code>{{{discoveryURL}}}</code></a></td></tr>
        <tr><th>JWKS</th><td><a href="{{{jwksURL}}}"><code>{{{jwksURL}}}</code></a></td></tr>
        <tr><th>Certificates</th><td><a href="{{{certsURL}}}"><code>{{{certsURL}}}</code></a></td></tr>
        </table>
        <h2>Apps</h2>
        <table id="apps">
        <tr><th>Name</th><th>App ID</th><th>Try it</th></tr>
        {{#apps}}
        <tr><td>{{{name}}}</td><td><code>{{{id}}}</code></td><td><a href="{{{limitedDialogURL}}}">limited login</a></td></tr>
        {{/apps}}
        </table>
        <h2>Test users</h2>
        <table id="users">
        <tr><th>Name</th><th>Email</th><th>ID</th></tr>
        {{#users}}
        <tr><td>{{{name}}}</td><td>{{{email}}}</td><td><code>{{{id}}}</code></td></tr>
        {{/users}}
        </table>
        </main>
        </body>
        </html>
        """
}
