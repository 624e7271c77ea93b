extension PageTemplates {
    /// The `<head>` and opening of every page (partial `head`); expects `title` (and `stylesheetPath` and
    /// `scriptPath`, which ``PageRenderer`` adds). Light and dark follow the system's setting.
    static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <meta name="color-scheme" content="light dark">
        <title>{{{title}}}</title>
        <link rel="stylesheet" href="{{{stylesheetPath}}}">
        <script src="{{{scriptPath}}}" defer></script>
        </head>
        <body>
        <header><span>limited-login</span></header>
        """
}
