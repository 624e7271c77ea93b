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
    body { font-family: Helvetica, Arial, sans-serif; background: #f0f2f5; color: #1c1e21; margin: 0; }
    header { background: #1877f2; color: #fff; padding: 12px 24px; font-weight: bold; font-size: 20px; }
    main { max-width: 520px; margin: 32px auto; background: #fff; border-radius: 8px; padding: 24px;
           box-shadow: 0 2px 4px rgba(0,0,0,.1); }
    h1 { font-size: 22px; margin-top: 0; }
    button { font-size: 16px; padding: 8px 16px; border-radius: 6px; border: 1px solid #ccd0d5; background: #f5f6f7; cursor: pointer; }
    button.primary { background: #1877f2; color: #fff; border-color: #1877f2; }
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
