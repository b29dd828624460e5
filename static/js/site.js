/* Progressive enhancement only: every page works without this file. */
(function () {
  "use strict";

  // "Copia link": the permalink field is always visible; the button appears when the clipboard works.
  document.querySelectorAll("button.copia-link").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copia"));
    var status = button.parentElement.querySelector(".copia-esito");
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = field.value;
      var done = function () { if (status) status.textContent = "Link copiato negli appunti."; };
      var fallback = function () {
        field.focus();
        field.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        if (status) status.textContent = ok ? "Link copiato negli appunti." : "Seleziona il link e copialo con Ctrl+C.";
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, fallback);
      } else {
        fallback();
      }
    });
  });

  // A rule number typed in a search box opens the rule directly (the server redirects it to the canonical address).
  var ruleNumber = /^\s*(?:(?:cr|r|regola|rule)\s*)?([1-9]\d{2}(?:\.?\d{1,3}[a-z]{0,2})?)\.?\s*$/i;
  document.querySelectorAll("form[data-regola-diretta]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var input = form.querySelector("input[name=q]");
      var m = input && ruleNumber.exec(input.value);
      if (m) {
        event.preventDefault();
        window.location.assign("/regole/" + encodeURIComponent(m[1]));
      }
    });
  });

  if (window.location.hash === "#q") {
    var box = document.querySelector("input[name=q]");
    if (box) box.focus();
  }

  // "/" focuses the search box (when not typing somewhere else).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var box = document.querySelector("input[name=q]");
    if (box) {
      event.preventDefault();
      box.focus();
      box.select();
    } else {
      window.location.assign("/#q");
    }
  });
})();
