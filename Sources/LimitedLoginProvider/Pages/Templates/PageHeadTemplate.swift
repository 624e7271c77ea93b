extension PageTemplates {
    /// The `<head>` and opening of every page (partial `head`); expects `title` (and `stylesheetPath`, which
    /// ``PageRenderer`` adds).
    static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{{title}}}</title>
        <link rel="stylesheet" href="{{{stylesheetPath}}}">
        </head>
        <body>
        <header>limited-login</header>
        """
}
