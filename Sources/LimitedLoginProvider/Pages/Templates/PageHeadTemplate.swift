extension PageTemplates {
    /// The `<head>` and opening of every page (partial `head`); expects `title`.
    static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>{{{title}}}</title>
    <style>
    /* #1464d0 under white text, and as text on white: 5.6:1 (WCAG AA asks 4.5:1). */
    body { font-family: Helvetica, Arial, sans-serif; background: #f0f2f5; color: #1c1e21; margin: 0; }
    header { background: #1464d0; color: #fff; padding: 12px 24px; font-weight: bold; font-size: 20px; }
    main { max-width: 520px; margin: 32px auto; background: #fff; border-radius: 8px; padding: 24px;
           box-shadow: 0 2px 4px rgba(0,0,0,.1); }
    h1 { font-size: 22px; margin-top: 0; }
    button { font-size: 16px; padding: 8px 16px; border-radius: 6px; border: 1px solid #ccd0d5; background: #f5f6f7; cursor: pointer; }
    button.primary { background: #1464d0; color: #fff; border-color: #1464d0; }
    button.link { background: none; border: none; padding: 0; color: #1464d0; text-decoration: underline; font-size: inherit; }
    p.switch { margin-top: 16px; }
    input[type=email], input[type=password] { font-size: 16px; padding: 8px; width: 100%; box-sizing: border-box; margin: 4px 0 12px; }
    ul.permissions { list-style: none; padding: 0; }
    ul.permissions li { padding: 6px 0; }
    .limited { background: #e7f3ff; border-radius: 6px; padding: 8px 12px; }
    .error { color: #be4b49; }
    .users form { display: inline-block; margin: 4px; }
    table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; }
    code { word-break: break-all; }
    </style>
    </head>
    <body>
    <header>limited-login</header>
    """
}
