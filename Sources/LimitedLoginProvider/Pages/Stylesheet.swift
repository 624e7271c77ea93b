import Crypto
import LimitedLoginJOSE

/// The one stylesheet of every page (dialog, home, console), served at a path that carries a hash of
/// its content (`/assets/site-<hash>.css`), so that browsers may keep it for a year: a change to it is a
/// new path.
enum Stylesheet {
    /// #1464d0 under white text, and as text on white: 5.6:1 (WCAG AA asks 4.5:1); every other text
    /// color here reaches 4.5:1 on the background it sits on (PageContrastTests).
    static let css = """
        body { font-family: Helvetica, Arial, sans-serif; background: #f0f2f5; color: #1c1e21; margin: 0; }
        header { background: #1464d0; color: #fff; padding: 12px 24px; font-weight: bold; font-size: 20px; }
        header a { color: #fff; }
        main { max-width: 520px; margin: 32px auto; background: #fff; border-radius: 8px; padding: 24px;
               box-shadow: 0 2px 4px rgba(0,0,0,.1); }
        main.wide { max-width: 1100px; }
        h1 { font-size: 22px; margin-top: 0; }
        a { color: #1464d0; }
        button { font-size: 16px; padding: 8px 16px; border-radius: 6px; border: 1px solid #8a8d91; background: #f5f6f7; color: #1c1e21; cursor: pointer; }
        button.primary { background: #1464d0; color: #fff; border-color: #1464d0; }
        button.link { background: none; border: none; padding: 0; color: #1464d0; text-decoration: underline; font-size: inherit; }
        button.small { font-size: 14px; padding: 4px 10px; }
        p.switch { margin-top: 16px; }
        label { display: block; margin-top: 8px; }
        label.inline { display: inline; margin: 0; }
        input[type=email], input[type=password], input[type=text], input[type=number], input[type=search], textarea, select {
            font-size: 16px; padding: 8px; width: 100%; box-sizing: border-box; margin: 4px 0 12px; border: 1px solid #8a8d91; border-radius: 4px; }
        input[type=search] { width: 70%; }
        ul.permissions { list-style: none; padding: 0; }
        ul.permissions li { padding: 6px 0; }
        ul.users { list-style: none; padding: 0; } ul.users li { margin: 6px 0; }
        .user-email { color: #595b5f; }
        .limited { background: #e7f3ff; border-radius: 6px; padding: 8px 12px; }
        .error { color: #b3261e; }
        .notice { background: #e6f4ea; color: #1e4620; border-radius: 6px; padding: 8px 12px; }
        .users form { display: inline-block; margin: 4px; }
        table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e4e6eb; vertical-align: top; }
        .scroll { overflow-x: auto; }
        code { word-break: break-all; }
        pre { white-space: pre-wrap; word-break: break-all; background: #f5f6f7; padding: 8px; border-radius: 4px; }
        nav.console a { margin-right: 12px; }
        form.inline { display: inline; }
        details { margin: 8px 0; }
        .tag { font-size: 13px; background: #e4e6eb; color: #1c1e21; border-radius: 4px; padding: 1px 6px; }
        fieldset { border: 1px solid #e4e6eb; border-radius: 6px; margin: 12px 0; }
        """

    /// Where the stylesheet is served: its name carries the first bytes of its SHA-256.
    static let path: String = {
        let digest = SHA256.hash(data: Array(css.utf8))
        return "/assets/site-" + RandomIdentifiers.hex(digest.prefix(8)) + ".css"
    }()
}
