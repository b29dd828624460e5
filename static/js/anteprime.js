/* Rule previews, everywhere: a link to a rule (a citation, a result, an index entry, the simulator's
   log) shows the rule's number, name and Italian text on hover, on keyboard focus or on the first
   tap; the second tap opens the rule. The popover stays inside the screen (390 px included).
   One script, no framework: this site loads it on every page, and the embed script
   (static/js/incorpora.js) loads it on other sites, where data-sito names this site.
   Text comes from /api/anteprima/<number>, or from the link itself (data-testo, the simulator). */
(function () {
  "use strict";
  if (window.judgeAnteprime) return;

  var script = document.currentScript;
  var site = (script && script.getAttribute("data-sito")) || (script && script.src ? new URL(script.src, location.href).origin : location.origin);
  var RULE_PATH = /^\/regole\/([1-9][0-9]{0,2}(?:\.[0-9]{1,3}[a-z]{0,2})?)$/;
  // A tournament document's section (/ipg/2.1, /mtr/B, /jar): previewed as «IPG 2.1», «JAR».
  var DOC_PATH = /^\/(mtr|ipg|jar)(?:\/([0-9]{1,2}(?:\.[0-9]{1,2})?|[A-F]|introduzione|struttura))?$/;
  var SKIP = "header.site, nav.briciole, footer.site, .judge-anteprima, [data-anteprima=no]";
  var MARGIN = 8;

  var cache = {};
  // Previews already known (the embed script gets them with the citations): no request for those.
  var known = window.judgeAnteprimeNote || {};
  Object.keys(known).forEach(function (n) { cache[n] = Promise.resolve(known[n]); });
  var pop = null, current = null, tapped = null, hideTimer = null, showTimer = null, lastPointer = "mouse";

  /* The rule a link points to, or null when it is no rule citation. */
  function ruleOf(a) {
    if (!a || a.tagName !== "A" || !a.getAttribute("href")) return null;
    if (a.closest(SKIP)) return null;
    if (a.hasAttribute("data-testo")) return { number: a.textContent.trim(), text: a.getAttribute("data-testo"), lang: a.getAttribute("data-lingua") || "it", url: a.href };
    var url;
    try { url = new URL(a.href, location.href); } catch (e) { return null; }
    if (url.origin !== site || url.search) return null;
    var d = DOC_PATH.exec(url.pathname);
    if (d) {
      var ref = d[1].toUpperCase() + (d[2] ? " " + d[2] : "");
      if (a.textContent.toUpperCase().indexOf(d[1].toUpperCase()) === -1 && !a.hasAttribute("data-anteprima")) return null;
      return { number: ref, url: url.href, document: true };
    }
    var m = RULE_PATH.exec(url.pathname);
    if (!m) return null;
    var number = decodeURIComponent(m[1]);
    // Only links that name the rule ("702.19b", "regola 702.19b", "§ 702.19"): not "Precedente".
    if (a.textContent.indexOf(number.split(".")[0]) === -1 && !a.hasAttribute("data-anteprima")) return null;
    return { number: number, url: url.href };
  }

  function linkFrom(target) {
    return target && target.closest ? target.closest("a[href]") : null;
  }

  function ensurePop() {
    if (pop) return pop;
    pop = document.createElement("div");
    pop.id = "judge-anteprima";
    pop.className = "judge-anteprima";
    pop.setAttribute("role", "tooltip");
    pop.hidden = true;
    pop.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    pop.addEventListener("mouseleave", scheduleHide);
    document.body.appendChild(pop);
    return pop;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function layerClass(layer) {
    return "strato strato-" + ({ "ufficiale": "ufficiale", "traduzione": "traduzione", "comunità": "comunita" }[layer] || "ufficiale");
  }

  function fill(p, rule, data, withLink) {
    p.textContent = "";
    p.appendChild(el("strong", "anteprima-titolo", data && data.title ? data.title : "Regola " + rule.number));
    if (data && data.label) p.appendChild(el("span", layerClass(data.layer), data.label));
    else if (rule.lang === "en") p.appendChild(el("span", layerClass("ufficiale"), "Inglese ufficiale (manca la traduzione italiana)"));
    var body = el("span", "anteprima-testo", data ? data.text : "Caricamento…");
    if (data && data.lang) body.setAttribute("lang", data.lang);
    p.appendChild(body);
    if (withLink) {
      var open = el("a", "anteprima-apri", (rule.document ? "Apri " : "Apri la regola ") + rule.number + " →");
      open.href = rule.url;
      p.appendChild(open);
    }
  }

  function place(p, link) {
    var vw = document.documentElement.clientWidth, vh = window.innerHeight;
    p.style.maxWidth = Math.min(416, vw - 2 * MARGIN) + "px";
    p.style.left = "0px";
    p.style.top = "0px";
    var r = link.getBoundingClientRect();
    var w = p.offsetWidth, h = p.offsetHeight;
    var left = Math.max(MARGIN, Math.min(r.left, vw - w - MARGIN));
    var below = r.bottom + 6, above = r.top - h - 6;
    var top = (below + h <= vh - MARGIN || above < MARGIN) ? below : above;
    p.style.left = (window.scrollX + left) + "px";
    p.style.top = (window.scrollY + Math.max(MARGIN, top)) + "px";
  }

  function load(rule) {
    if (rule.text != null) return Promise.resolve({ text: rule.text, lang: rule.lang });
    if (cache[rule.number]) return cache[rule.number];
    var promise = fetch(site + "/api/anteprima/" + encodeURIComponent(rule.number), { credentials: "omit" })
      .then(function (resp) { if (!resp.ok) throw new Error(resp.status); return resp.json(); })
      .catch(function () {
        delete cache[rule.number];
        return { text: "Anteprima non disponibile: apri la regola per leggerla." };
      });
    cache[rule.number] = promise;
    return promise;
  }

  function show(link, withLink) {
    var rule = ruleOf(link);
    if (!rule) return;
    var p = ensurePop();
    clearTimeout(hideTimer);
    current = link;
    fill(p, rule, null, withLink);
    p.hidden = false;
    place(p, link);
    link.setAttribute("aria-describedby", p.id);
    load(rule).then(function (data) {
      if (current !== link) return;
      fill(p, rule, data, withLink);
      place(p, link);
    });
  }

  function hide() {
    clearTimeout(showTimer);
    if (pop) pop.hidden = true;
    if (current) current.removeAttribute("aria-describedby");
    current = null;
    tapped = null;
  }

  function scheduleHide() { clearTimeout(hideTimer); hideTimer = setTimeout(hide, 250); }

  document.addEventListener("pointerdown", function (e) { lastPointer = e.pointerType || "mouse"; }, true);
  document.addEventListener("touchstart", function () { lastPointer = "touch"; }, { capture: true, passive: true });

  document.addEventListener("mouseover", function (e) {
    var a = linkFrom(e.target);
    if (!a || lastPointer !== "mouse" || !ruleOf(a)) return;
    clearTimeout(showTimer);
    showTimer = setTimeout(function () { show(a, false); }, 120);
  });
  document.addEventListener("mouseout", function (e) {
    var a = linkFrom(e.target);
    if (a && ruleOf(a)) { clearTimeout(showTimer); scheduleHide(); }
  });
  document.addEventListener("focusin", function (e) {
    var a = linkFrom(e.target);
    if (a && ruleOf(a)) { if (current !== a) show(a, lastPointer !== "mouse"); }
    else if (pop && !pop.contains(e.target)) hide();
  });
  document.addEventListener("click", function (e) {
    var a = linkFrom(e.target);
    var rule = a && ruleOf(a);
    if (rule && lastPointer !== "mouse" && tapped !== a && !e.defaultPrevented) {
      e.preventDefault();              // first tap: the text, with a link to open the rule
      show(a, true);
      tapped = a;
      return;
    }
    if (pop && !pop.hidden && !pop.contains(e.target) && !rule) hide();
  }, true);
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && pop && !pop.hidden) hide();
  });
  window.addEventListener("resize", function () { if (current && pop && !pop.hidden) place(pop, current); });

  window.judgeAnteprime = { show: show, hide: hide };
})();
