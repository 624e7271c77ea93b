extension PageTemplates {
    /// The last logins this node completed, with their claims (never the token).
    static let consoleLogins = """
        {{> head}}
        {{> console_top}}
        <p class="muted">The last {{{loginCapacity}}} logins this node completed, newest first (kept in memory; no token is kept, only its claims).</p>
        <table id="logins-table" class="cards">
        <thead><tr><th scope="col">Time</th><th scope="col">App</th><th scope="col">Test user</th><th scope="col">Mode</th><th scope="col">Permissions</th><th scope="col">ID token</th></tr></thead>
        <tbody id="logins-list">
        {{#logins}}
        <tr class="login" data-app-id="{{{appID}}}" data-user-id="{{{userID}}}" data-search="{{{search}}}"><td data-label="Time">{{{time}}}</td><td data-label="App">{{{appName}}}</td><td data-label="Test user">{{{userName}}}</td><td data-label="Mode">{{{mode}}}</td><td data-label="Permissions">{{{granted}}}{{#declined}}<br>declined: {{{declined}}}{{/declined}}</td>
        <td data-label="ID token">{{#claims}}<details><summary>Claims</summary><pre class="claims">{{{claims}}}</pre></details>{{/claims}}{{^claims}}none{{/claims}}</td></tr>
        {{/logins}}
        </tbody>
        </table>
        {{^logins}}<p id="no-logins">{{#search}}No login matches.{{/search}}{{^search}}No login completed since this node started.{{/search}}</p>{{/logins}}
        </main>
        </body>
        </html>
        """
}
