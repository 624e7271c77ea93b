extension PageTemplates {
    /// The last posts of the apps' deauthorize and data deletion callbacks.
    static let consoleDeliveries = """
        {{> head}}
        {{> console_top}}
        <p class="muted">The last 50 posts of an app's deauthorize or data deletion callback, newest first: each is tried again after {{{retryDelays}}} before it is marked failed.</p>
        <table id="deliveries-table" class="cards">
        <thead><tr><th scope="col">Time</th><th scope="col">App</th><th scope="col">Callback</th><th scope="col">Test user</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th></tr></thead>
        <tbody id="deliveries-list">
        {{#deliveries}}
        <tr class="delivery" data-delivery-id="{{{id}}}" data-status="{{{status}}}" data-search="{{{search}}}"><td data-label="Time">{{{time}}}</td><td data-label="App"><code>{{{appID}}}</code></td><td data-label="Callback">{{{kind}}}</td><td data-label="Test user"><code>{{{userID}}}</code></td><td data-label="URL"><code>{{{url}}}</code></td><td data-label="Status">{{{status}}}</td><td data-label="Attempts">{{{attempts}}}</td><td data-label="Answer">{{{lastError}}}{{{confirmation}}}</td></tr>
        {{/deliveries}}
        </tbody>
        </table>
        {{^deliveries}}<p id="no-deliveries">{{#search}}No delivery matches.{{/search}}{{^search}}No callback delivered yet.{{/search}}</p>{{/deliveries}}
        </main>
        </body>
        </html>
        """
}
