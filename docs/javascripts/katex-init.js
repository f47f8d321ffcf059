// Render the math that pymdownx.arithmatex (generic mode) leaves as \( … \) and \[ … \].
// Any error (a parse error, or an unknown command, which throwOnError: false would only colour red)
// replaces the formula with a .katex-error node carrying the message; the site test looks for it.
(function () {
  function strip(tex) {
    var t = tex.trim();
    if ((t.startsWith("\\(") && t.endsWith("\\)")) || (t.startsWith("\\[") && t.endsWith("\\]"))) {
      return t.slice(2, -2);
    }
    return t;
  }
  function render(root) {
    (root || document).querySelectorAll(".arithmatex").forEach(function (el) {
      if (el.dataset.katex === "done") return;
      var tex = strip(el.textContent);
      try {
        katex.render(tex, el, { displayMode: el.tagName === "DIV", throwOnError: true });
      } catch (err) {
        var span = document.createElement("span");
        span.className = "katex-error";
        span.title = String(err && err.message ? err.message : err);
        span.textContent = tex;
        el.replaceChildren(span);
      }
      el.dataset.katex = "done";
    });
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { render(document); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { render(document); });
  } else {
    render(document);
  }
})();
