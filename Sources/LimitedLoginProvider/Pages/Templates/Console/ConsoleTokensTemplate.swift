extension PageTemplates {
    /// Tokens: mint one (user, app, nonce, defect, claims) as `POST /_admin/tokens` does, and look into
    /// any ID token: the token to copy, its header and claims decoded, and what the project's verifier
    /// says of it against this provider's keys. A minted token is shown once, on the answer.
    static let consoleTokens = """
        {{> head}}
        {{> console_top}}
        {{#inspected}}<section id="token-view" aria-labelledby="token-view-heading">
        <h2 id="token-view-heading">{{{heading}}}</h2>
        <p class="{{#valid}}notice{{/valid}}{{^valid}}error{{/valid}}" id="token-verdict" role="status">{{{verdict}}}</p>
        <label for="token-text">ID token</label><textarea id="token-text" class="token" readonly rows="5">{{{token}}}</textarea>
        <div class="toolbar"><button type="button" class="small" data-copy="token-text" id="copy-token">Copy the ID token</button></div>
        {{#accessToken}}<label for="access-token-text">Access token</label><textarea id="access-token-text" class="token" readonly rows="2">{{{accessToken}}}</textarea>
        <div class="toolbar"><button type="button" class="small" data-copy="access-token-text" id="copy-access-token">Copy the access token</button></div>{{/accessToken}}
        <h3>Header</h3><pre id="token-header">{{{header}}}</pre>
        <h3>Claims</h3><pre class="claims" id="token-claims">{{{claims}}}</pre>
        <p class="muted">Check it elsewhere: <code>limited-login verify TOKEN --app-id {{{appID}}} --discovery-url {{{discoveryURL}}}</code></p>
        </section>{{/inspected}}
        <h2 id="mint">Mint a token</h2>
        <p>An ID token (and, with tracking enabled, an access token) without a browser, as <code>limited-login token</code> and
        <code>POST /_admin/tokens</code> mint them. Empty fields take the defaults.</p>
        <form method="post" action="/_console/actions/mint-token" id="mint-form"><input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="mint-app">App</label><select id="mint-app" name="app_id">{{#appOptions}}<option value="{{{id}}}"{{#selected}} selected{{/selected}}>{{{name}}} ({{{id}}})</option>{{/appOptions}}</select>
        <label for="mint-user">Test user</label><select id="mint-user" name="user">{{#userOptions}}<option value="{{{id}}}"{{#selected}} selected{{/selected}}>{{{name}}} ({{{email}}})</option>{{/userOptions}}</select>
        <label for="mint-subject">Or a subject no stored user has (the token's <code>sub</code>)</label><input id="mint-subject" name="subject" value="{{{kept_mint_token.subject}}}" autocomplete="off">
        <label for="mint-permissions">Permissions (comma-separated; public_profile is always granted)</label><input id="mint-permissions" name="permissions" value="{{{kept_mint_token.permissions}}}{{^kept_mint_token}}email{{/kept_mint_token}}">
        <label for="mint-tracking">Tracking</label><select id="mint-tracking" name="tracking"><option value="limited">limited (ID token only)</option><option value="enabled"{{#kept_mint_token.isEnabled}} selected{{/kept_mint_token.isEnabled}}>enabled (classic: also an access token)</option></select>
        <label for="mint-nonce">Nonce (empty: a fresh one)</label><input id="mint-nonce" name="nonce" value="{{{kept_mint_token.nonce}}}" autocomplete="off">
        <label for="mint-raw-nonce">Or a raw nonce (the token carries its SHA-256 hex)</label><input id="mint-raw-nonce" name="raw_nonce" value="{{{kept_mint_token.raw_nonce}}}" autocomplete="off">
        <label for="mint-claims">Claims to add or replace (a JSON object; null removes one)</label><textarea id="mint-claims" name="claims" rows="2">{{{kept_mint_token.claims}}}</textarea>
        <label for="mint-lifetime">Lifetime in seconds (empty: the provider's)</label><input type="number" id="mint-lifetime" name="lifetime" value="{{{kept_mint_token.lifetime}}}" min="1">
        <label for="mint-defect">Defect</label><select id="mint-defect" name="defect"><option value="">none (a valid token)</option>{{#defects}}<option value="{{{name}}}"{{#selected}} selected{{/selected}}>{{{name}}}: {{{summary}}}</option>{{/defects}}</select>
        <button type="submit" class="primary" id="mint-button">Mint</button>
        </form>
        <h2 id="inspect">Decode and verify a token</h2>
        <form method="post" action="/_console/actions/inspect-token" id="inspect-form"><input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="inspect-token">ID token</label><textarea id="inspect-token" name="token" rows="4" class="token" required>{{{kept_inspect_token.token}}}</textarea>
        <label for="inspect-app">For the app (empty: the token's <code>aud</code>)</label><input type="text" id="inspect-app" name="app_id" value="{{{kept_inspect_token.app_id}}}" inputmode="numeric" autocomplete="off">
        <button type="submit" id="inspect-button">Decode and verify</button>
        </form>
        </main>
        </body>
        </html>
        """
}
