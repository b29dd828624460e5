/* Loaded in <head>, before the page is drawn: marks that JavaScript runs (the phone menu folds
   away, and its button opens it from the first tap: not only once the deferred scripts arrive)
   and applies the remembered choice of text (Italian, English or both), so a page never flashes
   the language the reader turned off. The choice is kept on this device only. */
(function () {
  "use strict";
  var KEY = "judge.lingue";
  var root = document.documentElement;
  root.classList.add("js");

  function read() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }

  function apply(value) {
    if (value === "it" || value === "en") root.setAttribute("data-lingue", value);
    else root.removeAttribute("data-lingue");
  }

  function sync() {
    var now = root.getAttribute("data-lingue") || "entrambe";
    document.querySelectorAll("[data-scelta-lingua]").forEach(function (group) {
      group.hidden = false;
      group.querySelectorAll("button[data-lingue]").forEach(function (b) {
        b.setAttribute("aria-pressed", String(b.getAttribute("data-lingue") === now));
      });
    });
  }

  apply(read());

  document.addEventListener("click", function (event) {
    var b = event.target.closest ? event.target.closest("[data-scelta-lingua] button[data-lingue]") : null;
    if (!b) return;
    var value = b.getAttribute("data-lingue");
    apply(value);
    try { localStorage.setItem(KEY, value); } catch (e) { /* private mode: this page only */ }
    sync();
  });
  // The phone menu: one button opens the site's sections; Escape closes them.
  function setMenu(button, menu, open) {
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("aperto", open);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".menu-apri") : null;
    var menu = document.getElementById("menu-sito");
    if (!button || !menu) return;
    var open = button.getAttribute("aria-expanded") !== "true";
    setMenu(button, menu, open);
    if (open) { var first = menu.querySelector("a"); if (first) first.focus(); }
  });
  document.addEventListener("keydown", function (event) {
    var button = document.querySelector(".menu-apri"), menu = document.getElementById("menu-sito");
    if (event.key === "Escape" && button && menu && menu.classList.contains("aperto")) {
      setMenu(button, menu, false);
      button.focus();
    }
  });
  // Another tab changed it: follow.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY) { apply(event.newValue); sync(); }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sync);
  else sync();
})();
