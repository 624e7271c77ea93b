extension PageTemplates {
    /// The console's first page: each section with what it holds now, and the provider's addresses.
    static let consoleOverview = """
        {{> head}}
        {{> console_top}}
        <p class="muted">Each form here is one admin API call (<code>/_admin</code>); the provider's time is <strong id="clock-now">{{{clockNow}}}</strong>.</p>
        <div class="cards-grid" id="console-overview">
        {{#cards}}
        <section class="card" aria-labelledby="card-{{{id}}}"><h2 id="card-{{{id}}}"><a href="{{{path}}}">{{{label}}}</a></h2>
        <p class="count" id="count-{{{id}}}">{{{count}}}</p><p class="muted">{{{summary}}}</p></section>
        {{/cards}}
        </div>
        <h2>This provider</h2>
        <div class="scroll" role="region" aria-label="Addresses (scrolls sideways)" tabindex="0"><table>
        <tr><th scope="row">Issuer</th><td><code>{{{issuer}}}</code></td></tr>
        <tr><th scope="row">Discovery</th><td><code>{{{discoveryURL}}}</code></td></tr>
        <tr><th scope="row">JWKS</th><td><code>{{{jwksURL}}}</code></td></tr>
        </table></div>
        </main>
        </body>
        </html>
        """
}
