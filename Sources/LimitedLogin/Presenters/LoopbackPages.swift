/// The few pages the loopback listener answers the browser with.
enum LoopbackPages {
    /// Moves the fragment (`#id_token=…`) into the query and reloads, so the listener can read it.
    static func relay(scriptNonce: String) -> String {
        page(
            title: "Finishing login",
            body: """
                <p id="status">Finishing the login…</p>
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
        <meta name="viewport" content="width=device-width, initial-scale=1"></head>
        <body style="font-family: system-ui, sans-serif; max-width: 32em; margin: 4em auto;">
        \(body)
        </body>
        </html>
        """
    }

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
