extension PageTemplates {
    /// Grants: who granted what to which app, with revoke, uninstall (asks first), expire data access and
    /// a data deletion request.
    static let consoleGrants = """
        {{> head}}
        {{> console_top}}
        <table id="grants-table" class="cards">
        <thead><tr><th scope="col">App</th><th scope="col">Test user</th><th scope="col">Granted</th><th scope="col">Declined</th><th scope="col">State</th><th scope="col">Change</th></tr></thead>
        <tbody id="grants-list">
        {{#grants}}
        <tr data-app-id="{{{appID}}}" data-user-id="{{{userID}}}" data-search="{{{search}}}"><td data-label="App">{{{appName}}}</td><td data-label="Test user">{{{userName}}}</td>
        <td data-label="Granted">{{#granted}}<form method="post" action="/_console/actions/revoke-permission" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><input type="hidden" name="permission" value="{{{name}}}"><code>{{{name}}}</code>{{#revocable}} <button type="submit" class="small" data-revoke="{{{name}}}" aria-label="Revoke {{{name}}}">Revoke</button>{{/revocable}}</form><br>{{/granted}}</td>
        <td data-label="Declined">{{#declined}}<code>{{{.}}}</code><br>{{/declined}}</td><td data-label="State">{{{state}}}</td>
        <td data-label="Change"><div class="toolbar">{{#installed}}<a href="/_console/confirm/uninstall?app_id={{{appID}}}&amp;user_id={{{userID}}}" class="button small danger" aria-label="Uninstall {{{appName}}} for {{{userName}}}">Uninstall</a>
        <form method="post" action="/_console/actions/expire-data-access" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><button type="submit" class="small">Expire data access</button></form>{{/installed}}
        <form method="post" action="/_console/actions/request-data-deletion" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><button type="submit" class="small">Request data deletion</button></form></div></td></tr>
        {{/grants}}
        </tbody>
        </table>
        {{^grants}}<p id="no-grants">{{#search}}No grant matches.{{/search}}{{^search}}No one has logged in to an app yet.{{/search}}</p>{{/grants}}
        </main>
        </body>
        </html>
        """
}
