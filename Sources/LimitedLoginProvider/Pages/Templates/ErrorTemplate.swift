extension PageTemplates {
    /// An error the dialog cannot send back to the app.
    static let error = """
    {{> head}}
    <main>
    <h1 id="title">{{{title}}}</h1>
    <p class="error" id="error-message">{{{message}}}</p>
    </main>
    </body>
    </html>
    """
}
