extension PageTemplates {
    /// The harness: the provider's clock (move it, set it to a date, or follow the system's), the queued
    /// scenarios (queue one, remove one or all), and the state exported or imported.
    static let consoleHarness = """
        {{> head}}
        {{> console_top}}
        <h2 id="clock">Clock</h2>
        <p>The provider's time is <strong id="clock-now">{{{clockNow}}}</strong> ({{{clockOffset}}} seconds from the system's).</p>
        <form method="post" action="/_console/actions/advance-clock" id="advance-clock-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="clock-seconds">Move the clock by (seconds; negative moves it back)</label><input type="number" id="clock-seconds" name="seconds" value="{{{kept_advance_clock.seconds}}}{{^kept_advance_clock}}3600{{/kept_advance_clock}}">
        <button type="submit" id="advance-clock-button">Move the clock</button></form>
        <form method="post" action="/_console/actions/set-clock" id="set-clock-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="clock-time">Set the clock to (UTC)</label><input type="datetime-local" id="clock-time" name="time" step="1" value="{{{kept_set_clock.time}}}{{^kept_set_clock}}{{{clockInput}}}{{/kept_set_clock}}">
        <label class="check"><input type="checkbox" name="force" value="1"{{#kept_set_clock.force}} checked{{/kept_set_clock.force}}> Even before tokens it already issued (they would seem issued in the future)</label>
        <button type="submit" id="set-clock-button">Set the clock</button></form>
        <form method="post" action="/_console/actions/reset-clock" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit" id="reset-clock-button">Follow the system clock</button></form>

        <h2 id="scenarios-heading">Queued scenarios</h2>
        <p class="muted">Each decides the next dialog of its app (for one test user, or anyone): a cancel, an error sent back to the app, or claims added to the token.</p>
        <ul id="scenarios" class="user-list">
        {{#scenarios}}
        <li class="toolbar" data-scenario-id="{{{id}}}"><span class="grow"><code>{{{summary}}}</code></span>
        <form method="post" action="/_console/actions/remove-scenario" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><input type="hidden" name="scenario_id" value="{{{id}}}"><button type="submit" class="small" aria-label="Remove scenario {{{id}}}">Remove</button></form></li>
        {{/scenarios}}
        </ul>
        {{#hasScenarios}}<a href="/_console/confirm/clear-scenarios" class="button small danger" id="clear-scenarios-link">Clear them all</a>{{/hasScenarios}}
        {{^hasScenarios}}<p id="no-scenarios">None queued.</p>{{/hasScenarios}}
        <details id="queue-scenario"{{#kept_queue_scenario}} open{{/kept_queue_scenario}}><summary>Queue a scenario</summary>
        <form method="post" action="/_console/actions/queue-scenario" id="queue-scenario-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="scenario-app">App</label><select id="scenario-app" name="app_id">{{#appOptions}}<option value="{{{id}}}"{{#selected}} selected{{/selected}}>{{{name}}} ({{{id}}})</option>{{/appOptions}}</select>
        <label for="scenario-user">For one test user (email or ID; empty: anyone)</label><input type="text" id="scenario-user" name="user" value="{{{kept_queue_scenario.user}}}" autocomplete="off">
        <label for="scenario-outcome">Outcome</label><select id="scenario-outcome" name="outcome"><option value="cancel">cancel: the person presses Cancel</option><option value="error"{{#kept_queue_scenario.isError}} selected{{/kept_queue_scenario.isError}}>error: an error sent back to the app</option><option value="claims"{{#kept_queue_scenario.isClaims}} selected{{/kept_queue_scenario.isClaims}}>claims: these claims in the token</option></select>
        <label for="scenario-code">Error code (for an error)</label><input type="number" id="scenario-code" name="code" value="{{{kept_queue_scenario.code}}}">
        <label for="scenario-message">Error message (for an error)</label><input type="text" id="scenario-message" name="message" value="{{{kept_queue_scenario.message}}}">
        <label for="scenario-claims">Claims (for claims: a JSON object)</label><textarea id="scenario-claims" name="claims" rows="2">{{{kept_queue_scenario.claims}}}</textarea>
        <button type="submit" class="primary" id="queue-scenario-button">Queue</button>
        </form>
        </details>

        <h2 id="state">State</h2>
        <p>Everything the provider holds (apps, test users, friendships, grants, app-scoped IDs, scenarios, the clock's offset) as a fixtures document, to keep or to load into another provider (<code>serve --fixtures</code>).</p>
        <div class="toolbar"><a href="/_console/export" class="button" id="export-link" download>Export (without signing keys)</a>
        <a href="/_console/export?include_keys=true" class="button" id="export-keys-link" download>Export with signing keys</a></div>
        <details id="import-state"{{#kept_import_state}} open{{/kept_import_state}}><summary>Import</summary>
        <form method="post" action="/_console/actions/import-state" id="import-state-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="import-document">A fixtures or export document (JSON): apps and users that exist already (by ID, or a user by email) stay as they are</label>
        <textarea id="import-document" name="document" rows="6" class="token">{{{kept_import_state.document}}}</textarea>
        <button type="submit" class="primary" id="import-state-button">Import</button>
        </form>
        </details>
        </main>
        </body>
        </html>
        """
}
