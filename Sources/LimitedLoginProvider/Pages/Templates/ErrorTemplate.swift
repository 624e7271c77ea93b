extension PageTemplates {
    /// An error the dialog cannot send back to the app, or a page that does not exist (with a link home).
    static let error = """
        {{> head}}
        <main>
        <h1 id="title">{{{title}}}</h1>
        <p class="error" id="error-message">{{{message}}}</p>
        {{#homeURL}}<p><a href="{{{homeURL}}}" id="home-link">Go to the provider's home page</a></p>{{/homeURL}}
        </main>
        </body>
        </html>
        """
}
