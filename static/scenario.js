/* The simulator, enhanced: forms submit and judge-action links open without a page reload
   (the server's page is fetched and its #sc-app swapped in), permalinks copy with a button,
   and the stepper has keyboard shortcuts (n t u r d a, Esc). Rule numbers show their text on
   hover, focus or tap through the site's one preview script (static/js/anteprime.js).
   Without this file every form still works: each one is a plain POST → 303 → GET. */
(function () {
  "use strict";

  var busy = false;

  function app() { return document.getElementById("sc-app"); }

  function submitterData(form, submitter) {
    var data;
    try { data = new FormData(form, submitter || undefined); }
    catch (e) {
      data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    }
    return data;
  }

  function focusAfterSwap(root, submitter) {
    var target = root.querySelector("[autofocus]") || root.querySelector("[aria-invalid=true]");
    if (!target && submitter && submitter.name) {
      var sel = 'button[name="' + CSS.escape(submitter.name) + '"][value="' + CSS.escape(submitter.value) + '"]';
      target = root.querySelector(sel);
      if (target && target.disabled) target = null;
    }
    if (!target) target = root.querySelector(".sc-alert") || root.querySelector(".sc-decision select, .sc-decision input") || root.querySelector("h1");
    if (target) {
      if (!target.hasAttribute("tabindex") && /^(H1|DIV|SECTION)$/.test(target.tagName)) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: false });
      if (target.select && target.tagName === "INPUT" && target.type !== "checkbox") {
        try { target.select(); } catch (e) { /* not selectable */ }
      }
    }
  }

  /* Open <details data-sc-keep> stay open when the page is swapped (the answer of a
     library scenario, the judge panel), as a judge expects while stepping. */
  function keptOpen(root) {
    var ids = [];
    root.querySelectorAll("details[data-sc-keep][open]").forEach(function (d) { if (d.id) ids.push(d.id); });
    return ids;
  }

  function swap(html, resp, submitter, focusSel) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("sc-app");
    if (!fresh) return false;
    var old = app();
    var open = keptOpen(old);
    old.replaceWith(document.importNode(fresh, true));
    open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    document.title = doc.title;
    if (resp.url && resp.url !== location.href && (resp.redirected || focusSel)) {
      history.pushState({ sc: true }, "", resp.url);
    }
    init(app());
    var target = null;                        // the first selector that matches, in order
    (focusSel || []).some(function (sel) { target = app().querySelector(sel); return !!target; });
    if (target) { target.focus(); target.scrollIntoView({ block: "nearest" }); }
    else focusAfterSwap(app(), submitter);
    return true;
  }

  function onLink(ev) {
    var a = ev.target.closest ? ev.target.closest("a[data-sc-link]") : null;
    if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    if (!window.fetch || !window.DOMParser || busy) return;
    ev.preventDefault();
    busy = true;
    var root = app();
    if (root) root.classList.add("sc-busy");
    fetch(a.href, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (resp) { return resp.text().then(function (html) { return { resp: resp, html: html }; }); })
      .then(function (r) {
        var order = [".sc-j-form select, .sc-j-form input:not([type=hidden]), .sc-j-form textarea",
                     ".sc-j-picked h3", "#sc-giudice > summary"];
        if (!swap(r.html, r.resp, null, order)) location.href = a.href;
      })
      .catch(function () { location.href = a.href; })
      .then(function () { busy = false; var x = app(); if (x) x.classList.remove("sc-busy"); });
  }

  function onSubmit(ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("form[data-sc-form]")) return;
    if (!window.fetch || !window.DOMParser) return;
    ev.preventDefault();
    if (busy) return;
    var submitter = ev.submitter || document.activeElement;
    if (submitter && submitter.form !== form) submitter = null;
    var data = submitterData(form, submitter);
    var root = app();
    busy = true;
    if (root) root.classList.add("sc-busy");
    fetch(form.action, { method: "POST", body: data, credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (resp) {
        return resp.text().then(function (html) { return { resp: resp, html: html }; });
      })
      .then(function (r) {
        if (!swap(r.html, r.resp, submitter, null)) native(form, submitter);
      })
      .catch(function () { native(form, submitter); })
      .then(function () { busy = false; var a = app(); if (a) a.classList.remove("sc-busy"); });
  }

  function native(form, submitter) {
    form.removeAttribute("data-sc-form");
    if (form.requestSubmit) form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    else form.submit();
  }

  /* --- copy buttons, shortcuts, log scrolling -------------------------------------------- */
  function addCopyButtons(root) {
    root.querySelectorAll("input[data-copy]").forEach(function (input) {
      if (input.nextElementSibling && input.nextElementSibling.classList.contains("sc-copy")) return;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "sc-copy";
      b.textContent = "Copia";
      var ok = document.createElement("span");
      ok.className = "sc-copy-ok";
      ok.setAttribute("role", "status");
      b.addEventListener("click", function () {
        var done = function () { ok.textContent = "Copiato"; setTimeout(function () { ok.textContent = ""; }, 2500); };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(input.value).then(done, function () { input.select(); document.execCommand("copy"); done(); });
        } else { input.select(); document.execCommand("copy"); done(); }
      });
      input.addEventListener("focus", function () { input.select(); });
      input.insertAdjacentElement("afterend", ok);
      input.insertAdjacentElement("afterend", b);
    });
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var root = app();
    if (!root || !root.classList.contains("sc-stepper")) return;
    if (e.key === "a") {                       // the judge actions: open, first action focused
      var panel = root.querySelector("#sc-giudice");
      if (!panel) return;
      e.preventDefault();
      panel.open = true;
      var first = panel.querySelector(".sc-j-form select, .sc-j-form input:not([type=hidden]), .sc-j-link");
      if (first) first.focus();
      return;
    }
    var map = { n: "passo", t: "turno", u: "annulla", r: "ripeti" };
    var b = null;
    if (e.key === "d") b = root.querySelector('.sc-decision button[value="predefinita"]');
    else if (map[e.key]) b = root.querySelector('.sc-controls button[value="' + map[e.key] + '"]');
    if (b && !b.disabled) { e.preventDefault(); b.click(); }
  });

  document.addEventListener("keydown", function (e) {   // Esc closes a judge-action form
    if (e.key !== "Escape" || !e.target.closest) return;
    var form = e.target.closest(".sc-j-form");
    var close = form && form.querySelector(".sc-j-close");
    if (close) { e.preventDefault(); close.click(); }
  });

  /* Discarding: only the cards in the chosen player's hand. */
  function filterHands(root) {
    root.querySelectorAll(".sc-j-form").forEach(function (form) {
      var who = form.querySelector('select[data-sc-pick="player"]');
      var hands = form.querySelectorAll(".sc-j-hand[data-player]");
      if (!who || !hands.length) return;
      var apply = function () {
        hands.forEach(function (h) {
          h.hidden = h.dataset.player !== who.value;
          if (h.hidden) h.querySelectorAll("input").forEach(function (i) { i.checked = false; });
        });
      };
      who.addEventListener("change", apply);
      apply();
    });
  }

  function init(root) {
    if (!root) return;
    addCopyButtons(root);
    filterHands(root);
    var f = root.dataset.focus;
    if (f) {
      var el = root.querySelector('[name="' + CSS.escape(f) + '"]');
      // Only when nothing has the focus (a fresh page, or the focused part just swapped out): on a
      // slow connection this script can run after the judge started typing in another field, and
      // the rest of what they type must not land in this one.
      var active = document.activeElement;
      if (el && active !== el && (!active || active === document.body)) el.focus();
    }
  }

  document.addEventListener("submit", onSubmit);
  document.addEventListener("click", onLink);
  window.addEventListener("popstate", function () { location.reload(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { init(app()); });
  else init(app());
})();
