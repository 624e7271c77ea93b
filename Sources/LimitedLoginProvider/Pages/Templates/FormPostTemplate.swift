extension PageTemplates {
    /// `response_mode=form_post`: the response as a form that posts itself to the redirect URI.
    static let formPost = """
        {{> head}}
        <main>
        <h1 id="title">Returning to {{{appName}}}</h1>
        <form method="post" action="{{{redirectURI}}}" id="response-form">
        {{#fields}}
        <input type="hidden" name="{{{name}}}" value="{{{value}}}">
        {{/fields}}
        <noscript><button type="submit" class="primary">Continue</button></noscript>
        </form>
        <script nonce="{{{scriptNonce}}}">document.getElementById("response-form").submit();</script>
        </main>
        </body>
        </html>
        """
}
