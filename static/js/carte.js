/* Card names as one types: suggestions under any input[data-carta] (from /api/carte?q=).
   In the scenario builder, picking a card asks the server to fill the «add» row («Compila
   dalla carta»: the same rule as without this script, so a value the judge changed stays
   theirs); on /carte, picking a card opens its page.
   Without this file the builder's button and the search form do the same by plain POST/GET. */
(function () {
  "use strict";

  var timer = null;
  var lastQuery = "";
  var found = {};   // suggestion value (lower case) -> card page url

  function listFor(input) {
    return document.getElementById(input.getAttribute("list") || "");
  }

  function suggest(input) {
    var q = input.value.trim();
    var list = listFor(input);
    if (!list || q === lastQuery) return;
    lastQuery = q;
    if (q.length < 2) { list.textContent = ""; return; }
    var url = input.getAttribute("data-carta-api") + "?limite=8&q=" + encodeURIComponent(q);
    fetch(url, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : { cards: [] }; })
      .then(function (data) {
        if (input.value.trim() !== q) return;          // typed on meanwhile
        list.textContent = "";
        (data.cards || []).forEach(function (c) {
          var opt = document.createElement("option");
          opt.value = c.matched;
          opt.label = (c.name_it && c.name_it !== c.name ? c.name_it + " (" + c.name + ")" : c.name) +
                      " — " + (c.type_line_it && c.type_line_it !== c.type_line ? c.type_line_it + " (" + c.type_line + ")" : c.type_line);
          list.appendChild(opt);
          found[c.matched.toLowerCase()] = c.url;
        });
      })
      .catch(function () { /* no suggestions: the form still works */ });
  }

  function picked(input) {
    var url = found[input.value.trim().toLowerCase()];
    if (!url) return;
    if (input.hasAttribute("data-carta-vai")) {
      window.location.assign(url);
      return;
    }
    var form = input.form;
    var button = form && form.querySelector('button[name="azione"][value="compila"]');
    if (!button) return;
    if (form.requestSubmit) form.requestSubmit(button); else button.click();
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[data-carta]")) return;
    // A suggestion chosen from the list (not a name typed letter by letter).
    if (event.inputType === "insertReplacementText" || (!event.inputType && found[input.value.trim().toLowerCase()])) {
      picked(input);
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(function () { suggest(input); }, 150);
  });

  // On a slow connection (or a busy server) this deferred script can arrive after the judge
  // has typed the whole name: suggest for it now rather than wait for another key.
  var active = document.activeElement;
  if (active && active.matches && active.matches("input[data-carta]") && active.value.trim()) {
    suggest(active);
  }
})();
