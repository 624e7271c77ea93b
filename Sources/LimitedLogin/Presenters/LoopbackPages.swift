/// The few pages the loopback listener answers the browser with, in the provider's look (its colors, a
/// card, light and dark), from a style of their own: the page is on another origin than the provider.
enum LoopbackPages {
    /// Moves the fragment (`#id_token=…`) into the query and reloads, so the listener can read it.
    static func relay(scriptNonce: String) -> String {
        page(
            title: "Finishing login",
            body: """
                <h1 id="title">Finishing the login</h1>
                <p id="status">Handing the login response to the app…</p>
                <script nonce="\(scriptNonce)">
                (function () {
                  var fragment = window.location.hash;
                  if (fragment.length > 1) {
                    window.location.replace(window.location.pathname + "?" + fragment.substring(1));
                  } else {
                    document.getElementById("status").textContent = "This address carries no login response.";
                  }
                })();
                </script>
                <noscript><p>JavaScript is needed to hand the login response to the app.</p></noscript>
                """)
    }

    static func message(title: String, text: String) -> String {
        page(title: title, body: "<h1 id=\"title\">\(escape(title))</h1>\n<p id=\"message\">\(escape(text))</p>")
    }

    private static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <style>\(style)</style></head>
        <body>
        <header>limited-login</header>
        <main>
        \(body)
        </main>
        </body>
        </html>
        """
    }

    /// The provider's look in brief (Stylesheet.swift in the provider holds the whole of it).
    private static let style = """
        :root { color-scheme: light dark; --bg: #f0f2f5; --panel: #ffffff; --text: #1c1e21; --header: #1464d0; }
        @media (prefers-color-scheme: dark) { :root { --bg: #18191a; --panel: #242526; --text: #e4e6eb; --header: #1a2b40; } }
        body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; background: var(--bg); color: var(--text);
            margin: 0; line-height: 1.4; }
        header { background: var(--header); color: #ffffff; padding: 10px 20px; font-weight: bold; font-size: 18px; }
        main { max-width: 480px; margin: 24px auto; background: var(--panel); border-radius: 12px; padding: 24px; box-shadow: 0 2px 8px rgba(0,0,0,.12); }
        h1 { font-size: 22px; margin: 0 0 12px; }
        @media (max-width: 640px) { main { margin: 0; border-radius: 0; padding: 16px; box-shadow: none; } }
        """

    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
