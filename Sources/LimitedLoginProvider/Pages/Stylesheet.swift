import Crypto
import LimitedLoginJOSE

/// The one stylesheet of every page (dialog, home, console), served at a path that carries a hash of
/// its content (`/assets/site-<hash>.css`), so that browsers may keep it for a year: a change to it is a
/// new path.
///
/// Colors are variables with a light and a dark set (`prefers-color-scheme`); every text color reaches
/// 4.5:1 (WCAG AA) on the background it sits on, in both sets (PageContrastTests reads them from here).
/// Touch targets are at least 44 px high; on a phone (under 640 px) the dialog's buttons take the full
/// width and the console's tables become stacked cards (each cell labelled by its column).
enum Stylesheet {
    static let css = """
        :root { color-scheme: light dark; --bg: #f0f2f5; --panel: #ffffff; --text: #1c1e21; --muted: #595b5f; --line: #dadde1;
            --field: #ffffff; --field-border: #767676; --soft: #f5f6f7; --accent: #1464d0; --accent-text: #ffffff; --link: #1464d0;
            --error: #b3261e; --error-bg: #fdecea; --notice-bg: #e6f4ea; --notice-text: #1e4620; --limited-bg: #e7f3ff; --limited-text: #1c1e21;
            --danger: #b3261e; --danger-text: #ffffff; --tag-bg: #e4e6eb; --tag-text: #1c1e21; --header-bg: #1464d0; --header-text: #ffffff; }
        @media (prefers-color-scheme: dark) {
        :root { --bg: #18191a; --panel: #242526; --text: #e4e6eb; --muted: #b0b3b8; --line: #3e4042;
            --field: #18191a; --field-border: #8a8d91; --soft: #3a3b3c; --accent: #1464d0; --accent-text: #ffffff; --link: #8ab4f8;
            --error: #ff8a80; --error-bg: #3b1f1d; --notice-bg: #1e3a26; --notice-text: #c8e6c9; --limited-bg: #1a2b40; --limited-text: #e4e6eb;
            --danger: #b3261e; --danger-text: #ffffff; --tag-bg: #3a3b3c; --tag-text: #e4e6eb; --header-bg: #1a2b40; --header-text: #ffffff; }
        }
        body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; background: var(--bg); color: var(--text);
            margin: 0; line-height: 1.4; }
        header { background: var(--header-bg); color: var(--header-text); padding: 10px 20px; font-weight: bold; font-size: 18px;
            display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; }
        header a { color: var(--header-text); }
        main { max-width: 480px; margin: 24px auto; background: var(--panel); border-radius: 12px; padding: 24px; overflow-wrap: break-word;
            box-shadow: 0 2px 8px rgba(0,0,0,.12); }
        main.wide { max-width: 1100px; }
        h1 { font-size: 22px; margin: 0 0 12px; }
        h2 { font-size: 18px; margin: 24px 0 8px; }
        h3 { font-size: 16px; margin: 16px 0 8px; }
        a { color: var(--link); }
        p.muted, .muted, .user-email { color: var(--muted); }
        button, a.button { font: inherit; font-size: 16px; min-height: 44px; padding: 8px 16px; border-radius: 8px; border: 1px solid var(--field-border);
            background: var(--soft); color: var(--text); cursor: pointer; text-decoration: none; display: inline-flex; align-items: center;
            justify-content: center; box-sizing: border-box; gap: 6px; }
        button.primary, a.button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); font-weight: bold; }
        button.danger, a.button.danger { background: var(--danger); color: var(--danger-text); border-color: var(--danger); }
        button.block, a.button.block { width: 100%; margin: 8px 0; }
        button.link { background: none; border: none; padding: 0 4px; min-height: 44px; color: var(--link); text-decoration: underline; font-size: inherit; }
        button.small, a.button.small { font-size: 14px; min-height: 36px; padding: 4px 12px; }
        button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
            outline: 3px solid var(--link); outline-offset: 2px; }
        label { display: block; margin-top: 10px; font-weight: 600; }
        label.inline, label.check { display: flex; align-items: center; gap: 8px; font-weight: normal; margin: 8px 0; min-height: 32px; }
        input[type=email], input[type=password], input[type=text], input[type=number], input[type=search], input[type=url],
        input[type=datetime-local], input:not([type]), textarea, select {
            font: inherit; font-size: 16px; padding: 10px; width: 100%; box-sizing: border-box; margin: 4px 0 8px; border: 1px solid var(--field-border);
            border-radius: 8px; background: var(--field); color: var(--text); min-height: 44px; }
        input[type=checkbox] { width: 22px; height: 22px; margin: 0; accent-color: var(--accent); flex: none; }
        input[aria-invalid=true] { border: 2px solid var(--error); }
        .field-error, .error { color: var(--error); }
        p.field-error, p.error { background: var(--error-bg); border-radius: 8px; padding: 8px 12px; margin: 4px 0 8px; }
        .notice { background: var(--notice-bg); color: var(--notice-text); border-radius: 8px; padding: 8px 12px; }
        .limited { background: var(--limited-bg); color: var(--limited-text); border-radius: 8px; padding: 8px 12px; }
        .app-identity { display: flex; align-items: center; gap: 12px; margin-bottom: 12px; font-weight: bold; font-size: 17px; }
        .app-icon { width: 48px; height: 48px; border-radius: 12px; background: var(--accent); color: var(--accent-text); display: flex;
            align-items: center; justify-content: center; font-size: 24px; font-weight: bold; flex: none; }
        .avatar { width: 40px; height: 40px; border-radius: 50%; color: #ffffff; display: flex; align-items: center; justify-content: center;
            font-weight: bold; flex: none; background: #1464d0; }
        .avatar.c1 { background: #0f6e5f; } .avatar.c2 { background: #7b3fa0; } .avatar.c3 { background: #a33b00; }
        .avatar.c4 { background: #4b5563; } .avatar.c5 { background: #9c1f5a; }
        .divider { display: flex; align-items: center; gap: 12px; color: var(--muted); margin: 20px 0 4px; }
        .divider::before, .divider::after { content: ""; flex: 1; border-top: 1px solid var(--line); }
        ul.user-list { list-style: none; padding: 0; margin: 8px 0; border: 1px solid var(--line); border-radius: 8px; }
        ul.user-list li + li { border-top: 1px solid var(--line); }
        button.user-row { width: 100%; border: none; border-radius: 0; background: none; justify-content: flex-start; text-align: left;
            padding: 8px 12px; min-height: 56px; gap: 12px; }
        button.user-row:hover { background: var(--soft); }
        .user-text { display: flex; flex-direction: column; min-width: 0; }
        .user-name { font-weight: 600; }
        .user-email { font-size: 14px; overflow-wrap: anywhere; }
        form.search { display: flex; gap: 8px; align-items: flex-end; flex-wrap: wrap; margin: 8px 0; }
        form.search .grow { flex: 1 1 200px; }
        form.search input { margin-bottom: 0; }
        ul.permissions { list-style: none; padding: 0; margin: 0; }
        ul.permissions li { display: flex; align-items: center; justify-content: space-between; gap: 8px; padding: 6px 0;
            border-bottom: 1px solid var(--line); }
        ul.permissions label { margin: 0; }
        .signed-in-as { display: flex; align-items: center; gap: 10px; }
        p.switch { margin-top: 12px; text-align: center; }
        fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 12px 0; padding: 8px 12px; }
        legend { font-weight: 600; padding: 0 4px; }
        .tag { font-size: 13px; background: var(--tag-bg); color: var(--tag-text); border-radius: 4px; padding: 1px 6px; white-space: nowrap; }
        table { border-collapse: collapse; width: 100%; }
        td, th { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        .scroll { overflow-x: auto; }
        code { overflow-wrap: anywhere; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); padding: 8px; border-radius: 8px; }
        textarea.token { font-family: ui-monospace, Menlo, monospace; font-size: 13px; }
        nav.console { display: flex; flex-wrap: wrap; gap: 4px 6px; margin: 0 0 16px; }
        nav.console a { padding: 8px 10px; border-radius: 8px; text-decoration: none; min-height: 28px; display: inline-block; }
        nav.console a[aria-current=page] { background: var(--accent); color: var(--accent-text); }
        .toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
        form.inline { display: inline; }
        details { margin: 8px 0; }
        summary { cursor: pointer; min-height: 32px; }
        .cards-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
        .card { border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
        .card h2 { margin: 0 0 4px; font-size: 17px; }
        .count { font-size: 26px; font-weight: bold; }
        [hidden] { display: none !important; }
        .toolbar h1 { margin: 0; }
        #set-clock-form, #advance-clock-form { margin-bottom: 12px; }
        .narrow { display: none; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        @media (max-width: 640px) {
        main { margin: 0; border-radius: 0; padding: 16px; box-shadow: none; }
        main.dialog button:not(.link):not(.user-row), main.dialog a.button { width: 100%; margin: 6px 0; }
        nav.console { gap: 2px; flex-wrap: nowrap; overflow-x: auto; } nav.console a { padding: 4px 8px; font-size: 15px; min-height: 44px;
            box-sizing: border-box; display: inline-flex; align-items: center; flex: none; white-space: nowrap; }
        button.small, a.button.small, summary { min-height: 44px; }
        summary { display: flex; align-items: center; }
        table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: auto; }
        table.cards tr { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 12px; padding: 8px 12px; }
        table.cards td { border: none; padding: 4px 0; }
        table.cards td[data-label]::before { content: attr(data-label); display: block; font-size: 13px; color: var(--muted); font-weight: 600; }
        table.compact thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        table.compact, table.compact tbody { display: block; }
        table.compact tr { display: grid; grid-template-columns: 1fr auto; align-items: center; column-gap: 8px; border-bottom: 1px solid var(--line); padding: 6px 0; }
        table.compact td { border: none; padding: 2px 0; }
        table.compact .wide { display: none; }
        table.compact .narrow { display: block; font-size: 14px; }
        table.compact td.friends .narrow { display: inline; }
        table.compact td.change { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; }
        table.compact td.change details[open] { flex-basis: 100%; }
        }
        """

    /// Where the stylesheet is served: its name carries the first bytes of its SHA-256.
    static let path: String = {
        let digest = SHA256.hash(data: Array(css.utf8))
        return "/assets/site-" + RandomIdentifiers.hex(digest.prefix(8)) + ".css"
    }()
}
