extension PageTemplates {
    /// The question before a change that cannot be undone (a delete, a removal, an uninstall): what will
    /// happen, the form that does it, and a way back.
    static let consoleConfirm = """
        {{> head}}
        {{> console_top}}
        <p id="confirm-question">{{{question}}}</p>
        <p class="muted">{{{consequence}}}</p>
        <form method="post" action="/_console/actions/{{{action}}}" id="confirm-form" class="toolbar">
        <input type="hidden" name="csrf" value="{{{csrf}}}">
        {{#fields}}<input type="hidden" name="{{{name}}}" value="{{{value}}}">{{/fields}}
        <button type="submit" class="danger" id="confirm-button">{{{button}}}</button>
        <a href="{{{backPath}}}" class="button" id="confirm-cancel">Keep it</a>
        </form>
        </main>
        </body>
        </html>
        """
}
