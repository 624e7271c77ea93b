extension PageTemplates {
    /// The home page: what this provider serves, its apps and test users.
    static let home = """
        {{> head}}
        <main class="wide">
        <h1 id="title">limited-login provider</h1>
        <p><a href="/_console" id="console-link" class="button primary">Open the console</a></p>
        <p class="muted">Apps, test users, friendships, grants, keys, the clock, tokens and the last logins (sign in with the admin token).</p>
        <div class="scroll" role="region" aria-label="Addresses (scrolls sideways)" tabindex="0"><table>
        <tr><th scope="row">Base URL</th><td><code id="base-url">{{{baseURL}}}</code></td></tr>
        <tr><th scope="row">Issuer</th><td><code id="issuer">{{{issuer}}}</code></td></tr>
        <tr><th scope="row">Discovery</th><td><a href="{{{discoveryURL}}}"><code>{{{discoveryURL}}}</code></a></td></tr>
        <tr><th scope="row">JWKS</th><td><a href="{{{jwksURL}}}"><code>{{{jwksURL}}}</code></a></td></tr>
        <tr><th scope="row">Certificates</th><td><a href="{{{certsURL}}}"><code>{{{certsURL}}}</code></a></td></tr>
        </table></div>
        <h2>Apps</h2>
        <table id="apps" class="cards">
        <thead><tr><th scope="col">Name</th><th scope="col">App ID</th><th scope="col">Try it</th></tr></thead>
        <tbody>
        {{#apps}}
        <tr><td data-label="Name">{{{name}}}</td><td data-label="App ID"><code>{{{id}}}</code></td><td data-label="Try it"><a href="{{{limitedDialogURL}}}">Limited login to {{{name}}}</a></td></tr>
        {{/apps}}
        </tbody>
        </table>
        <h2>Test users</h2>
        <table id="users" class="cards">
        <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">ID</th></tr></thead>
        <tbody>
        {{#users}}
        <tr><td data-label="Name">{{{name}}}</td><td data-label="Email">{{{email}}}</td><td data-label="ID"><code>{{{id}}}</code></td></tr>
        {{/users}}
        </tbody>
        </table>
        </main>
        </body>
        </html>
        """
}
