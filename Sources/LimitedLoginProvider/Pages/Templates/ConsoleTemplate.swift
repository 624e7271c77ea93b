extension PageTemplates {
    /// The console's sign-in: the admin token.
    static let consoleSignIn = """
        {{> head}}
        <main>
        <h1 id="title">Sign in to the console</h1>
        <p>The console is for testers: apps, test users, friendships, grants, signing keys, the clock and the last logins.
        Give the provider's admin token (<code>serve</code> prints it on its first start; <code>LIMITED_LOGIN_ADMIN_TOKEN</code> sets it).</p>
        {{#errorMessage}}<p class="error" id="error-message" role="alert">{{{errorMessage}}}</p>{{/errorMessage}}
        <form method="post" action="/_console/signin" id="console-signin">
        <label for="admin-token">Admin token</label>
        <input type="password" id="admin-token" name="admin_token" autocomplete="current-password" required>
        <button type="submit" class="primary" id="console-signin-button">Sign in</button>
        </form>
        </main>
        </body>
        </html>
        """

    /// The console: every part of the provider a tester changes, each form one admin API call.
    static let console = """
        {{> head}}
        <main class="wide">
        <h1 id="title">Console</h1>
        <nav class="console" aria-label="Console sections">
        <a href="#apps">Apps</a><a href="#users">Test users</a><a href="#friends">Friendships</a><a href="#grants">Grants</a><a href="#keys">Signing keys</a><a href="#harness">Clock and scenarios</a><a href="#mint">Mint a token</a><a href="#logins">Recent logins</a><a href="#deliveries">Callback deliveries</a><a href="/">Home</a>
        </nav>
        <form method="post" action="/_console/signout" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit" class="small" id="console-signout">Sign out</button></form>
        {{#notice}}<p class="notice" id="notice" role="status">{{{notice}}}</p>{{/notice}}
        {{#errorMessage}}<p class="error" id="error-message" role="alert">{{{errorMessage}}}</p>{{/errorMessage}}

        <h2 id="apps">Apps</h2>
        <div class="scroll" role="region" aria-label="Apps (scrolls sideways)" tabindex="0"><table id="apps-table">
        <tr><th scope="col">Name</th><th scope="col">App ID</th><th scope="col">Redirect URIs</th><th scope="col">Business</th><th scope="col">Change</th></tr>
        {{#apps}}
        <tr data-app-id="{{{id}}}"><td>{{{name}}}{{#gaming}} <span class="tag">gaming</span>{{/gaming}}{{#isDevelopment}} <span class="tag">development</span>{{/isDevelopment}}</td><td><code>{{{id}}}</code></td><td>{{#redirectURIs}}<code>{{{.}}}</code><br>{{/redirectURIs}}{{#suffixURIs}}<code>{{{.}}}</code><br>{{/suffixURIs}}</td><td>{{{business}}}</td>
        <td><details><summary>Edit {{{name}}}</summary>
        <form method="post" action="/_console/actions/edit-app">
        <input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{id}}}">
        <label for="app-name-{{{id}}}">Name</label><input type="text" id="app-name-{{{id}}}" name="name" value="{{{name}}}">
        <label for="app-uris-{{{id}}}">Redirect URIs, one per line</label><textarea id="app-uris-{{{id}}}" name="redirect_uris" rows="3">{{{redirectURIText}}}</textarea>
        <label for="app-suffixes-{{{id}}}">iOS URL-scheme suffixes, one per line (each allows <code>fb{{{id}}}{suffix}://authorize/</code>)</label><textarea id="app-suffixes-{{{id}}}" name="url_scheme_suffixes" rows="2">{{{suffixText}}}</textarea>
        <label class="inline"><input type="checkbox" name="new_secret" value="1"> Make a new app secret</label><br>
        <input type="hidden" name="gaming_shown" value="1"><label class="inline"><input type="checkbox" name="gaming" value="1"{{#gaming}} checked{{/gaming}}> A gaming app (<code>graph_domain=gaming</code>)</label>
        <label class="inline"><input type="checkbox" name="require_appsecret_proof" value="1"{{#requiresProof}} checked{{/requiresProof}}> Require App Secret (Graph calls with a person's token carry <code>appsecret_proof</code>)</label>
        <label for="app-mode-{{{id}}}">Mode</label><select id="app-mode-{{{id}}}" name="mode"><option value="live"{{^isDevelopment}} selected{{/isDevelopment}}>Live: every test user can log in</option><option value="development"{{#isDevelopment}} selected{{/isDevelopment}}>Development: only people with a role</option></select>
        <label for="app-roles-{{{id}}}">Roles, one per line: a test user's email or ID, then admin, developer or tester</label><textarea id="app-roles-{{{id}}}" name="roles" rows="2">{{{rolesText}}}</textarea>
        <label for="app-deauthorize-{{{id}}}">Deauthorize callback URL (empty: none)</label><input type="url" id="app-deauthorize-{{{id}}}" name="deauthorize_callback_url" value="{{{deauthorizeURL}}}">
        <label for="app-deletion-{{{id}}}">Data deletion request callback URL (empty: none)</label><input type="url" id="app-deletion-{{{id}}}" name="data_deletion_callback_url" value="{{{dataDeletionURL}}}">
        <p><button type="submit" class="small">Save</button></p>
        </form>
        <form method="post" action="/_console/actions/move-app">
        <input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{id}}}">
        <label for="app-business-{{{id}}}">Business ID (empty: none)</label><input type="text" id="app-business-{{{id}}}" name="business_id" value="{{{business}}}">
        <button type="submit" class="small">Move</button>
        </form>
        <p>App secret: <code class="app-secret">{{{secret}}}</code></p>
        </details>
        <form method="post" action="/_console/actions/delete-app" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{id}}}"><button type="submit" class="small" aria-label="Delete app {{{name}}}">Delete</button></form>
        </td></tr>
        {{/apps}}
        </table></div>
        <details id="create-app"><summary>Create an app</summary>
        <form method="post" action="/_console/actions/create-app" id="create-app-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="new-app-name">Name</label><input type="text" id="new-app-name" name="name" required>
        <label for="new-app-id">App ID (digits; empty: one is made)</label><input type="text" id="new-app-id" name="id" inputmode="numeric">
        <label for="new-app-uris">Redirect URIs, one per line (loopback URIs need none)</label><textarea id="new-app-uris" name="redirect_uris" rows="2"></textarea>
        <label for="new-app-suffixes">iOS URL-scheme suffixes, one per line (<code>FacebookUrlSchemeSuffix</code>)</label><textarea id="new-app-suffixes" name="url_scheme_suffixes" rows="1"></textarea>
        <label for="new-app-business">Business ID (optional)</label><input type="text" id="new-app-business" name="business_id">
        <label class="inline"><input type="checkbox" name="gaming" value="1"> A gaming app (<code>graph_domain=gaming</code>; <code>gaming_profile</code> and <code>gaming_user_picture</code>)</label>
        <label class="inline"><input type="checkbox" name="require_appsecret_proof" value="1"> Require App Secret (<code>appsecret_proof</code> on Graph calls)</label>
        <label for="new-app-mode">Mode</label><select id="new-app-mode" name="mode"><option value="live" selected>Live: every test user can log in</option><option value="development">Development: only people with a role (give them one after)</option></select>
        <label for="new-app-deauthorize">Deauthorize callback URL (optional)</label><input type="url" id="new-app-deauthorize" name="deauthorize_callback_url">
        <label for="new-app-deletion">Data deletion request callback URL (optional)</label><input type="url" id="new-app-deletion" name="data_deletion_callback_url">
        <button type="submit" class="primary" id="create-app-button">Create app</button>
        </form>
        </details>

        <h2 id="users">Test users</h2>
        <div class="scroll" role="region" aria-label="Test users (scrolls sideways)" tabindex="0"><table id="users-table">
        <tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">ID</th><th scope="col">Profile</th><th scope="col">Friends</th><th scope="col">Change</th></tr>
        {{#users}}
        <tr data-user-id="{{{id}}}" data-user-email="{{{email}}}"><td>{{{name}}}</td><td>{{{email}}}</td><td><code>{{{id}}}</code></td><td>{{{profile}}}</td><td>{{{friendCount}}}</td>
        <td><details><summary>Edit {{{name}}}</summary>
        <form method="post" action="/_console/actions/edit-user" class="edit-user">
        <input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="user_id" value="{{{id}}}">
        <input type="hidden" name="hometown_id" value="{{{hometownID}}}"><input type="hidden" name="location_id" value="{{{locationID}}}">
        <label for="u-first-{{{id}}}">First name</label><input type="text" id="u-first-{{{id}}}" name="first_name" value="{{{firstName}}}" required>
        <label for="u-middle-{{{id}}}">Middle name</label><input type="text" id="u-middle-{{{id}}}" name="middle_name" value="{{{middleName}}}">
        <label for="u-last-{{{id}}}">Last name</label><input type="text" id="u-last-{{{id}}}" name="last_name" value="{{{lastName}}}" required>
        <label for="u-email-{{{id}}}">Email</label><input type="email" id="u-email-{{{id}}}" name="email" value="{{{email}}}" required>
        <label for="u-password-{{{id}}}">New password (empty: unchanged)</label><input type="password" id="u-password-{{{id}}}" name="password" autocomplete="new-password">
        <label for="u-birthday-{{{id}}}">Birthday (MM/DD/YYYY)</label><input type="text" id="u-birthday-{{{id}}}" name="birthday" value="{{{birthday}}}">
        <label for="u-gender-{{{id}}}">Gender</label><input type="text" id="u-gender-{{{id}}}" name="gender" value="{{{gender}}}">
        <label for="u-hometown-{{{id}}}">Hometown</label><input type="text" id="u-hometown-{{{id}}}" name="hometown" value="{{{hometown}}}">
        <label for="u-location-{{{id}}}">Location</label><input type="text" id="u-location-{{{id}}}" name="location" value="{{{location}}}">
        <label for="u-link-{{{id}}}">Profile link</label><input type="text" id="u-link-{{{id}}}" name="link" value="{{{link}}}">
        <label for="u-gaming-{{{id}}}">Avatar name in gaming apps (empty: their name)</label><input type="text" id="u-gaming-{{{id}}}" name="gaming_name" value="{{{gamingName}}}">
        <label class="inline"><input type="checkbox" name="pickable" value="1"{{#pickable}} checked{{/pickable}}> Offered on the sign-in page without a password</label>
        <p><button type="submit" class="small">Save</button></p>
        </form>
        </details>
        <form method="post" action="/_console/actions/delete-user" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="user_id" value="{{{id}}}"><button type="submit" class="small" aria-label="Delete test user {{{name}}}">Delete</button></form></td></tr>
        {{/users}}
        </table></div>
        <form method="post" action="/_console/actions/generate-user" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit" id="generate-user-button">Generate a test user</button></form>
        <details id="create-user"><summary>Create a test user</summary>
        <form method="post" action="/_console/actions/create-user" id="create-user-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="new-user-first">First name</label><input type="text" id="new-user-first" name="first_name" required>
        <label for="new-user-middle">Middle name</label><input type="text" id="new-user-middle" name="middle_name">
        <label for="new-user-last">Last name</label><input type="text" id="new-user-last" name="last_name" required>
        <label for="new-user-email">Email</label><input type="email" id="new-user-email" name="email" required>
        <label for="new-user-password">Password (empty: none; they are picked on the sign-in page)</label><input type="password" id="new-user-password" name="password" autocomplete="new-password">
        <label for="new-user-birthday">Birthday (MM/DD/YYYY)</label><input type="text" id="new-user-birthday" name="birthday">
        <label for="new-user-gender">Gender</label><input type="text" id="new-user-gender" name="gender">
        <label for="new-user-hometown">Hometown</label><input type="text" id="new-user-hometown" name="hometown">
        <label for="new-user-location">Location</label><input type="text" id="new-user-location" name="location">
        <label for="new-user-link">Profile link</label><input type="text" id="new-user-link" name="link">
        <label class="inline"><input type="checkbox" name="pickable" value="1" checked> Offered on the sign-in page without a password</label>
        <p><button type="submit" class="primary" id="create-user-button">Create test user</button></p>
        </form>
        </details>

        <h2 id="friends">Friendships</h2>
        <ul id="friendships">
        {{#friendships}}
        <li>{{{firstName}}} and {{{secondName}}} <form method="post" action="/_console/actions/remove-friends" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="user_id" value="{{{first}}}"><input type="hidden" name="friend_id" value="{{{second}}}"><button type="submit" class="small" aria-label="End the friendship of {{{firstName}}} and {{{secondName}}}">Remove</button></form></li>
        {{/friendships}}
        </ul>
        <form method="post" action="/_console/actions/add-friends" id="add-friends-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="friend-a">Test user</label><select id="friend-a" name="user_id">{{#users}}<option value="{{{id}}}">{{{name}}} ({{{email}}})</option>{{/users}}</select>
        <label for="friend-b">Friend</label><select id="friend-b" name="friend_id">{{#users}}<option value="{{{id}}}">{{{name}}} ({{{email}}})</option>{{/users}}</select>
        <button type="submit">Make friends</button>
        </form>

        <h2 id="grants">Grants</h2>
        <div class="scroll" role="region" aria-label="Grants (scrolls sideways)" tabindex="0"><table id="grants-table">
        <tr><th scope="col">App</th><th scope="col">Test user</th><th scope="col">Granted</th><th scope="col">Declined</th><th scope="col">State</th><th scope="col">Change</th></tr>
        {{#grants}}
        <tr data-app-id="{{{appID}}}" data-user-id="{{{userID}}}"><td>{{{appName}}}</td><td>{{{userName}}}</td>
        <td>{{#granted}}<form method="post" action="/_console/actions/revoke-permission" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><input type="hidden" name="permission" value="{{{name}}}"><code>{{{name}}}</code>{{#revocable}} <button type="submit" class="small" data-revoke="{{{name}}}" aria-label="Revoke {{{name}}}">Revoke</button>{{/revocable}}</form><br>{{/granted}}</td>
        <td>{{#declined}}<code>{{{.}}}</code><br>{{/declined}}</td><td>{{{state}}}</td>
        <td>{{#installed}}<form method="post" action="/_console/actions/uninstall" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><button type="submit" class="small">Uninstall</button></form>
        <form method="post" action="/_console/actions/expire-data-access" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><button type="submit" class="small">Expire data access</button></form>{{/installed}}
        <form method="post" action="/_console/actions/request-data-deletion" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="app_id" value="{{{appID}}}"><input type="hidden" name="user_id" value="{{{userID}}}"><button type="submit" class="small">Request data deletion</button></form></td></tr>
        {{/grants}}
        </table></div>
        {{^grants}}<p>No one has logged in to an app yet.</p>{{/grants}}

        <h2 id="keys">Signing keys</h2>
        <div class="scroll" role="region" aria-label="Signing keys (scrolls sideways)" tabindex="0"><table id="keys-table">
        <tr><th scope="col">Key ID</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Signs from</th><th scope="col">Unpublished at</th></tr>
        {{#keys}}<tr><td><code>{{{kid}}}</code></td><td>{{{state}}}</td><td>{{{created}}}</td><td>{{{signsFrom}}}</td><td>{{{unpublished}}}</td></tr>{{/keys}}
        </table></div>
        <form method="post" action="/_console/actions/rotate-key" id="rotate-key-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="publish-delay">Publish the new key this many seconds before it signs</label><input type="number" id="publish-delay" name="publish_delay" value="600" min="0" max="2592000">
        <button type="submit">Rotate the signing key</button>
        </form>

        <h2 id="harness">Clock and scenarios</h2>
        <p>The provider's time is <strong id="clock-now">{{{clockNow}}}</strong> ({{{clockOffset}}} seconds from the system's).</p>
        <form method="post" action="/_console/actions/advance-clock" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="clock-seconds">Move the clock by (seconds)</label><input type="number" id="clock-seconds" name="seconds" value="3600">
        <button type="submit">Move the clock</button></form>
        <form method="post" action="/_console/actions/reset-clock" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit">Follow the system clock</button></form>
        <h3>Queued scenarios</h3>
        {{#hasScenarios}}<pre id="scenarios">{{{scenarios}}}</pre>
        <form method="post" action="/_console/actions/clear-scenarios"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit">Clear the scenarios</button></form>{{/hasScenarios}}
        {{^hasScenarios}}<p>None: queue them with <code>limited-login scenario</code> or <code>POST /_admin/scenarios</code>.</p>{{/hasScenarios}}

        <h2 id="mint">Mint a token</h2>
        <p>An ID token (and, with tracking enabled, an access token) without a browser, as <code>limited-login token</code> and
        <code>POST /_admin/tokens</code> mint them. Empty fields take the defaults.</p>
        {{#minted}}<div id="minted">
        <label for="minted-id-token">ID token</label><textarea id="minted-id-token" readonly rows="5">{{{idToken}}}</textarea>
        {{#accessToken}}<label for="minted-access-token">Access token</label><textarea id="minted-access-token" readonly rows="2">{{{accessToken}}}</textarea>{{/accessToken}}
        <details open><summary>Claims</summary><pre class="claims" id="minted-claims">{{{claims}}}</pre></details>
        </div>{{/minted}}
        <form method="post" action="/_console/actions/mint-token" id="mint-form"><input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="mint-app">App</label><select id="mint-app" name="app_id">{{#apps}}<option value="{{{id}}}">{{{name}}} ({{{id}}})</option>{{/apps}}</select>
        <label for="mint-user">Test user</label><select id="mint-user" name="user">{{#users}}<option value="{{{id}}}">{{{name}}} ({{{email}}})</option>{{/users}}</select>
        <label for="mint-subject">Or a subject no stored user has (the token's <code>sub</code>)</label><input id="mint-subject" name="subject" autocomplete="off">
        <label for="mint-permissions">Permissions (comma-separated; public_profile is always granted)</label><input id="mint-permissions" name="permissions" value="email">
        <label for="mint-tracking">Tracking</label><select id="mint-tracking" name="tracking"><option value="limited">limited (ID token only)</option><option value="enabled">enabled (classic: also an access token)</option></select>
        <label for="mint-nonce">Nonce (empty: a fresh one)</label><input id="mint-nonce" name="nonce" autocomplete="off">
        <label for="mint-raw-nonce">Or a raw nonce (the token carries its SHA-256 hex)</label><input id="mint-raw-nonce" name="raw_nonce" autocomplete="off">
        <label for="mint-claims">Claims to add or replace (a JSON object; null removes one)</label><textarea id="mint-claims" name="claims" rows="2"></textarea>
        <label for="mint-lifetime">Lifetime in seconds (empty: the provider's)</label><input type="number" id="mint-lifetime" name="lifetime" min="1">
        <label for="mint-defect">Defect</label><select id="mint-defect" name="defect"><option value="">none (a valid token)</option>{{#defects}}<option value="{{{name}}}">{{{name}}}: {{{summary}}}</option>{{/defects}}</select>
        <button type="submit" class="primary" id="mint-button">Mint</button>
        </form>

        <h2 id="logins">Recent logins</h2>
        <p>The last {{{loginCapacity}}} logins this node completed, newest first (kept in memory; no token is kept, only its claims).</p>
        <div class="scroll" role="region" aria-label="Recent logins (scrolls sideways)" tabindex="0"><table id="logins-table">
        <tr><th scope="col">Time</th><th scope="col">App</th><th scope="col">Test user</th><th scope="col">Mode</th><th scope="col">Permissions</th><th scope="col">ID token</th></tr>
        {{#logins}}
        <tr class="login" data-app-id="{{{appID}}}" data-user-id="{{{userID}}}"><td>{{{time}}}</td><td>{{{appName}}}</td><td>{{{userName}}}</td><td>{{{mode}}}</td><td>{{{granted}}}{{#declined}}<br>declined: {{{declined}}}{{/declined}}</td>
        <td>{{#claims}}<details><summary>Claims</summary><pre class="claims">{{{claims}}}</pre></details>{{/claims}}{{^claims}}none{{/claims}}</td></tr>
        {{/logins}}
        </table></div>
        {{^logins}}<p id="no-logins">No login completed since this node started.</p>{{/logins}}

        <h2 id="deliveries">Callback deliveries</h2>
        <p>The last 50 posts of an app's deauthorize or data deletion callback, newest first: each is tried again after {{{retryDelays}}} before it is marked failed.</p>
        <div class="scroll" role="region" aria-label="Callback deliveries (scrolls sideways)" tabindex="0"><table id="deliveries-table">
        <tr><th scope="col">Time</th><th scope="col">App</th><th scope="col">Callback</th><th scope="col">Test user</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th></tr>
        {{#deliveries}}
        <tr class="delivery" data-delivery-id="{{{id}}}" data-status="{{{status}}}"><td>{{{time}}}</td><td><code>{{{appID}}}</code></td><td>{{{kind}}}</td><td><code>{{{userID}}}</code></td><td><code>{{{url}}}</code></td><td>{{{status}}}</td><td>{{{attempts}}}</td><td>{{{lastError}}}{{{confirmation}}}</td></tr>
        {{/deliveries}}
        </table></div>
        {{^deliveries}}<p id="no-deliveries">No callback delivered yet.</p>{{/deliveries}}
        </main>
        </body>
        </html>
        """
}
