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
      var what = field.tagName === "TEXTAREA" ? "Testo" : "Link";
      var done = function () { if (status) status.textContent = what + " copiato negli appunti."; };
      var fallback = function () {
        field.focus();
        field.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        if (status) status.textContent = ok ? what + " copiato negli appunti." : "Seleziona il testo e copialo con Ctrl+C.";
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

  // A link to the legend opens it.
  function openLegend() {
    if (window.location.hash !== "#legenda") return;
    var legend = document.getElementById("legenda");
    if (legend) { legend.open = true; legend.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openLegend);
  openLegend();

  // The rules offline: the service worker keeps the edition in force (judge/web/offline.py); the
  // footer says what the device holds, and the page says when the copy moved to a new edition.
  var offlineStatus = document.querySelector("[data-stato-offline]");
  if (offlineStatus && "serviceWorker" in navigator && window.isSecureContext) {
    var KEPT_KEY = "judge.copia", NOTICE_KEY = "judge.copia.avviso", NOTICE_DAYS = 7;
    var store = function (key, value) {
      try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
    };
    var read = function (key) {
      try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
    };
    // The notice stays on every page until the reader closes it (or for a week).
    var showNotice = function () {
      var saved = read(NOTICE_KEY);
      if (!saved || Date.now() - saved.quando > NOTICE_DAYS * 864e5) { store(NOTICE_KEY, null); return; }
      if (document.querySelector(".copia-aggiornata")) return;
      var note = document.createElement("p");
      note.className = "avviso-offline copia-aggiornata";
      note.setAttribute("role", "status");
      note.appendChild(document.createTextNode(saved.testo + " "));
      var close = document.createElement("button");
      close.type = "button";
      close.className = "chiudi-avviso";
      close.textContent = "Ho capito";
      close.addEventListener("click", function () { store(NOTICE_KEY, null); note.remove(); });
      note.appendChild(close);
      var main = document.getElementById("contenuto");
      if (main) main.insertBefore(note, main.firstChild);
    };
    var showCopy = function (state) {
      if (!state || state.tipo !== "copia") return;
      offlineStatus.hidden = false;
      offlineStatus.textContent = "Disponibile anche senza rete su questo dispositivo: edizione del " + state.edizione.data + ".";
      var seen = read(KEPT_KEY);
      if (seen && seen.versione !== state.versione) {
        store(NOTICE_KEY, { quando: Date.now(), testo: seen.edizione.id !== state.edizione.id
          ? "Copia offline aggiornata: ora è l'edizione del " + state.edizione.data + " (prima: " + seen.edizione.data + ")."
          : "Copia offline aggiornata all'ultima versione dell'edizione del " + state.edizione.data + "." });
      }
      store(KEPT_KEY, { versione: state.versione, edizione: state.edizione });
      showNotice();
    };
    showNotice();
    navigator.serviceWorker.addEventListener("message", function (event) { showCopy(event.data); });
    var register = function () {
      navigator.serviceWorker.register(offlineStatus.getAttribute("data-sw"), { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        var worker = navigator.serviceWorker.controller || registration.active;
        if (worker) worker.postMessage({ tipo: "stato" });
      }).catch(function () { /* no offline copy: the site works as before */ });
    };
    // After the page has loaded, and once the server has the copy's files (it builds them once per
    // edition): the copy is made in the background, never before what the reader asked for.
    var start = function () {
      if (navigator.serviceWorker.controller) {  // a copy is kept: look for a new edition's
        register();
        navigator.serviceWorker.getRegistration().then(function (r) { if (r) r.update().catch(function () {}); });
        return;
      }
      fetch(offlineStatus.getAttribute("data-sw-stato"), { cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (s) { if (s.pronta) register(); })
        .catch(function () { /* offline or no server: nothing to install */ });
    };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start);
  }

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
