extension PageTemplates {
    /// Signing keys: their states, and a rotation.
    static let consoleKeys = """
        {{> head}}
        {{> console_top}}
        <table id="keys-table" class="cards">
        <thead><tr><th scope="col">Key ID</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Signs from</th><th scope="col">Unpublished at</th></tr></thead>
        <tbody id="keys-list">
        {{#keys}}<tr data-search="{{{search}}}"><td data-label="Key ID"><code>{{{kid}}}</code></td><td data-label="State">{{{state}}}</td><td data-label="Created">{{{created}}}</td><td data-label="Signs from">{{{signsFrom}}}</td><td data-label="Unpublished at">{{{unpublished}}}</td></tr>{{/keys}}
        </tbody>
        </table>
        <h2>Rotate</h2>
        <form method="post" action="/_console/actions/rotate-key" id="rotate-key-form">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        <label for="publish-delay">Publish the new key this many seconds before it signs</label><input type="number" id="publish-delay" name="publish_delay" value="{{{publishDelay}}}" min="0" max="2592000">
        <button type="submit" class="primary" id="rotate-key-button">Rotate the signing key</button>
        </form>
        </main>
        </body>
        </html>
        """
}
