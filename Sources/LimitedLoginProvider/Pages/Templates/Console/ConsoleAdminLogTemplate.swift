extension PageTemplates {
    /// The admin log: every admin write, through the admin API or the console, newest first.
    static let consoleAdminLog = """
        {{> head}}
        {{> console_top}}
        <p class="muted">Every change made through the admin API or this console, newest first: who made it (a credential's name, or organisation for the admin token), on what, and through which node. The last {{{logShown}}} are shown; the newest {{{logKept}}} are kept.</p>
        <table id="admin-log-table" class="cards">
        <thead><tr><th scope="col">Time</th><th scope="col">Credential</th><th scope="col">Operation</th><th scope="col">Target</th><th scope="col">Node</th></tr></thead>
        <tbody id="admin-log-list">
        {{#entries}}
        <tr class="admin-log-entry" data-search="{{{search}}}"><td data-label="Time">{{{time}}}</td><td data-label="Credential">{{{credential}}}</td><td data-label="Operation"><code>{{{operation}}}</code></td><td data-label="Target"><code>{{{target}}}</code></td><td data-label="Node">{{{node}}}</td></tr>
        {{/entries}}
        </tbody>
        </table>
        {{^entries}}<p id="no-admin-log">{{#search}}No entry matches.{{/search}}{{^search}}No change recorded yet.{{/search}}</p>{{/entries}}
        </main>
        </body>
        </html>
        """
}
