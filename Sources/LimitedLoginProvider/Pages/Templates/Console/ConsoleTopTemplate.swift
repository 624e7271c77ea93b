extension PageTemplates {
    /// The top of every console page (partial `console_top`): the navigation between sections (the current
    /// one marked), sign-out, the notice or error of the last action, the page's heading and, on a page with
    /// a list, its search (a GET form; with scripts, the list also filters as one types).
    static let consoleTop = """
        <main class="wide" id="console">
        <nav class="console" aria-label="Console sections">
        {{#nav}}<a href="{{{path}}}"{{#current}} aria-current="page"{{/current}}>{{{label}}}</a>{{/nav}}<a href="/">Home</a>
        </nav>
        <div class="toolbar"><h1 id="title">{{{heading}}}</h1>
        <form method="post" action="/_console/signout" class="inline"><input type="hidden" name="csrf" value="{{{csrf}}}"><button type="submit" class="small" id="console-signout">Sign out</button></form></div>
        {{#notice}}<p class="notice" id="notice" role="status">{{{notice}}}</p>{{/notice}}
        {{#errorMessage}}<p class="error" id="error-message" role="alert">{{{errorMessage}}}</p>{{/errorMessage}}
        {{#searchable}}
        <form method="get" action="{{{sectionPath}}}" role="search" class="search" id="search-form">
        <div class="grow"><label for="search">Search {{{searchWhat}}}</label>
        <input type="search" id="search" name="q" value="{{{search}}}" maxlength="200" data-filter="{{{filterTarget}}}" autocomplete="off"></div>
        <button type="submit" id="search-button">Search</button>{{#search}}<a href="{{{sectionPath}}}" class="button" id="search-clear">Show all</a>{{/search}}
        </form>
        {{#search}}<p class="muted" id="search-summary">{{{matchCount}}} matching “{{{search}}}”.</p>{{/search}}
        {{/searchable}}
        """
}
