import Crypto
import LimitedLoginJOSE

/// The pages' one script, served as a file of this origin (`/assets/pages-<hash>.js`), so that the pages'
/// Content-Security-Policy allows no inline script at all. Everything it does is an enhancement: every
/// page works without it (a search is a GET form; a token is in a text field to select).
///
/// - A button with `data-copy="<id>"` copies that field's text and says "Copied".
/// - A search field with `data-filter="<id>"` hides, as one types, the rows of that list (elements with
///   `data-search`) whose text does not contain what is typed; the form's submit still searches on the
///   provider.
enum PageScript {
    static let source = """
        "use strict";
        document.querySelectorAll("[data-copy]").forEach(function (button) {
          button.addEventListener("click", function () {
            var field = document.getElementById(button.getAttribute("data-copy"));
            if (!field) { return; }
            var text = field.value !== undefined ? field.value : field.textContent;
            var done = function () { button.textContent = "Copied"; };
            if (navigator.clipboard && window.isSecureContext) {
              navigator.clipboard.writeText(text).then(done, function () { field.select(); document.execCommand("copy"); done(); });
            } else {
              field.select(); document.execCommand("copy"); done();
            }
          });
        });
        document.querySelectorAll("[data-filter]").forEach(function (input) {
          var list = document.getElementById(input.getAttribute("data-filter"));
          if (!list) { return; }
          input.addEventListener("input", function () {
            var query = input.value.trim().toLowerCase();
            list.querySelectorAll("[data-search]").forEach(function (row) {
              row.hidden = query !== "" && row.getAttribute("data-search").toLowerCase().indexOf(query) < 0;
            });
          });
        });
        """

    /// Where the script is served: its name carries the first bytes of its SHA-256.
    static let path: String = {
        let digest = SHA256.hash(data: Array(source.utf8))
        return "/assets/pages-" + RandomIdentifiers.hex(digest.prefix(8)) + ".js"
    }()
}
