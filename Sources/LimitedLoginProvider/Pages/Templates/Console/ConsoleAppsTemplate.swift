extension PageTemplates {
    /// Apps: the list (each with its edit form and a Delete that asks first), and "Create an app".
    /// A form refused keeps what was typed (`kept`), and stays open.
    static let consoleApps = """
        {{> head}}
        {{> console_top}}
        <table id="apps-table" class="cards">
        <thead><tr><th scope="col">Name</th><th scope="col">App ID</th><th scope="col">Redirect URIs</th><th scope="col">Business</th><th scope="col">Change</th></tr></thead>
        <tbody id="apps-list">
        {{#apps}}
        <tr data-app-id="{{{id}}}" data-search="{{{search}}}"><td data-label="Name">{{{name}}}{{#gaming}} <span class="tag">gaming</span>{{/gaming}}{{#isDevelopment}} <span class="tag">development</span>{{/isDevelopment}}</td><td data-label="App ID"><code>{{{id}}}</code></td><td data-label="Redirect URIs">{{#redirectURIs}}<code>{{{.}}}</code><br>{{/redirectURIs}}{{#suffixURIs}}<code>{{{.}}}</code><br>{{/suffixURIs}}</td><td data-label="Business">{{{business}}}</td>
        <td data-label="Change"><details{{#open}} open{{/open}}><summary>Edit {{{name}}}</summary>
        <form method="post" action="/_console/actions/edit-app" class="edit-app">
        <input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{id}}}">
        <label for="app-name-{{{id}}}">Name</label><input type="text" id="app-name-{{{id}}}" name="name" value="{{{name}}}">
        <label for="app-uris-{{{id}}}">Redirect URIs, one per line</label><textarea id="app-uris-{{{id}}}" name="redirect_uris" rows="3">{{{redirectURIText}}}</textarea>
        <label for="app-suffixes-{{{id}}}">iOS URL-scheme suffixes, one per line (each allows <code>fb{{{id}}}{suffix}://authorize/</code>)</label><textarea id="app-suffixes-{{{id}}}" name="url_scheme_suffixes" rows="2">{{{suffixText}}}</textarea>
        <label class="check"><input type="checkbox" name="new_secret" value="1"> <span>Make a new app secret</span></label>
        <input type="hidden" name="gaming_shown" value="1"><label class="check"><input type="checkbox" name="gaming" value="1"{{#gaming}} checked{{/gaming}}> <span>A gaming app (<code>graph_domain=gaming</code>)</span></label>
        <label class="check"><input type="checkbox" name="require_appsecret_proof" value="1"{{#requiresProof}} checked{{/requiresProof}}> <span>Require App Secret (Graph calls with a person's token carry <code>appsecret_proof</code>)</span></label>
        <label for="app-mode-{{{id}}}">Mode</label><select id="app-mode-{{{id}}}" name="mode"><option value="live"{{^isDevelopment}} selected{{/isDevelopment}}>Live: every test user can log in</option><option value="development"{{#isDevelopment}} selected{{/isDevelopment}}>Development: only people with a role</option></select>
        <label for="app-roles-{{{id}}}">Roles, one per line: a test user's email or ID, then admin, developer or tester</label><textarea id="app-roles-{{{id}}}" name="roles" rows="2">{{{rolesText}}}</textarea>
        <label for="app-deauthorize-{{{id}}}">Deauthorize callback URL (empty: none)</label><input type="url" id="app-deauthorize-{{{id}}}" name="deauthorize_callback_url" value="{{{deauthorizeURL}}}">
        <label for="app-deletion-{{{id}}}">Data deletion request callback URL (empty: none)</label><input type="url" id="app-deletion-{{{id}}}" name="data_deletion_callback_url" value="{{{dataDeletionURL}}}">
        <p><button type="submit" class="small primary">Save</button></p>
        </form>
        <form method="post" action="/_console/actions/move-app">
        <input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{id}}}">
        <label for="app-business-{{{id}}}">Business ID (empty: none)</label><input type="text" id="app-business-{{{id}}}" name="business_id" value="{{{business}}}">
        <button type="submit" class="small">Move</button>
        </form>
        <p>App secret: <code class="app-secret">{{{secret}}}</code></p>
        </details>
        <a href="/_console/confirm/delete-app?app_id={{{id}}}" class="button small danger" data-delete-app="{{{id}}}" aria-label="Delete app {{{name}}}">Delete</a>
        </td></tr>
        {{/apps}}
        </tbody>
        </table>
        {{^apps}}<p id="no-apps">{{#search}}No app matches.{{/search}}{{^search}}No app yet: create one below.{{/search}}</p>{{/apps}}
        <details id="create-app"{{#kept_create_app}} open{{/kept_create_app}}><summary>Create an app</summary>
        <form method="post" action="/_console/actions/create-app" id="create-app-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="new-app-name">Name</label><input type="text" id="new-app-name" name="name" value="{{{kept_create_app.name}}}" required>
        <label for="new-app-id">App ID (digits; empty: one is made)</label><input type="text" id="new-app-id" name="id" value="{{{kept_create_app.id}}}" inputmode="numeric">
        <label for="new-app-uris">Redirect URIs, one per line (loopback URIs need none)</label><textarea id="new-app-uris" name="redirect_uris" rows="2">{{{kept_create_app.redirect_uris}}}</textarea>
        <label for="new-app-suffixes">iOS URL-scheme suffixes, one per line (<code>FacebookUrlSchemeSuffix</code>)</label><textarea id="new-app-suffixes" name="url_scheme_suffixes" rows="1">{{{kept_create_app.url_scheme_suffixes}}}</textarea>
        <label for="new-app-business">Business ID (optional)</label><input type="text" id="new-app-business" name="business_id" value="{{{kept_create_app.business_id}}}">
        <label class="check"><input type="checkbox" name="gaming" value="1"{{#kept_create_app.gaming}} checked{{/kept_create_app.gaming}}> <span>A gaming app (<code>graph_domain=gaming</code>; <code>gaming_profile</code> and <code>gaming_user_picture</code>)</span></label>
        <label class="check"><input type="checkbox" name="require_appsecret_proof" value="1"{{#kept_create_app.require_appsecret_proof}} checked{{/kept_create_app.require_appsecret_proof}}> <span>Require App Secret (<code>appsecret_proof</code> on Graph calls)</span></label>
        <label for="new-app-mode">Mode</label><select id="new-app-mode" name="mode"><option value="live">Live: every test user can log in</option><option value="development"{{#kept_create_app.development}} selected{{/kept_create_app.development}}>Development: only people with a role (give them one after)</option></select>
        <label for="new-app-deauthorize">Deauthorize callback URL (optional)</label><input type="url" id="new-app-deauthorize" name="deauthorize_callback_url" value="{{{kept_create_app.deauthorize_callback_url}}}">
        <label for="new-app-deletion">Data deletion request callback URL (optional)</label><input type="url" id="new-app-deletion" name="data_deletion_callback_url" value="{{{kept_create_app.data_deletion_callback_url}}}">
        <button type="submit" class="primary" id="create-app-button">Create app</button>
        </form>
        </details>
        </main>
        </body>
        </html>
        """
}
